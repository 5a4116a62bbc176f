"""Adversary fuel scaled to the ground truth's work (pipeline/fuelcap.py)."""

from __future__ import annotations

from veriscale.pipeline.config import PipelineConfig
from veriscale.pipeline.fuelcap import adversary_fuel_cap


def test_cap_scales_with_the_ground_truth_within_floor_and_fixed_budget() -> None:
    s = PipelineConfig().outputs
    assert adversary_fuel_cap(None, s) == s.adversary_fuel
    assert adversary_fuel_cap(0, s) == s.adversary_fuel_floor
    assert adversary_fuel_cap(10_000, s) == 10_000 * s.adversary_fuel_ratio
    assert adversary_fuel_cap(10**9, s) == s.adversary_fuel


def test_ratio_zero_keeps_the_fixed_budget() -> None:
    s = PipelineConfig.from_json({"outputs": {"adversary_fuel_ratio": 0}}).outputs
    assert adversary_fuel_cap(5, s) == s.adversary_fuel
