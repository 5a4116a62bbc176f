"""Render the report's pages with Jinja2 and write the static site.

Every page is a Jinja2 template with autoescaping on for every template (model text, task
descriptions and suite values are untrusted: ``<script>`` in a candidate is written as
``&lt;script&gt;``); the only markup marked safe is Pygments' output, which escapes the text it
highlights. Charts are inline SVG from the same templates. Assets (one stylesheet, the highlight
stylesheet and the filter script) are copied next to the pages, so the site opens from
``file://`` with no server and loads nothing from the network; each page also carries a
Content-Security-Policy that forbids any other source.

Output: ``SITE/index.html``, ``tasks.html``, ``models.html``, ``suites/*.html``,
``tasks/*.html``, ``assets/``. Files are written in sorted path order; a page that fails to
render is reported in the returned problems and the other pages are still written. Pages in
``tasks/`` and ``suites/`` left by an earlier report into the same folder are removed.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, TemplateError

from .highlight import stylesheet
from .load import load_inputs
from .views import Site, build_views, slug

__all__ = ["SiteResult", "build_site", "write_site"]

ASSETS = ("style.css", "filter.js")


@dataclass
class SiteResult:
    out: Path
    pages: int
    bytes: int
    problems: list[str]

    @property
    def index(self) -> Path:
        return self.out / "index.html"


def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("veriscale.report", "templates"),
        autoescape=True,  # every template, whatever its extension
        undefined=StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
    )
    env.filters["slug"] = slug
    return env


def write_site(site: Site, out: Path, n_inputs: int) -> SiteResult:
    """Write ``site`` into ``out`` (created; files of an earlier report are overwritten)."""
    env = _environment()
    out.mkdir(parents=True, exist_ok=True)
    (out / "assets").mkdir(exist_ok=True)
    static = resources.files("veriscale.report") / "static"
    for name in ASSETS:
        with resources.as_file(static / name) as src:
            shutil.copyfile(src, out / "assets" / name)
    (out / "assets" / "highlight.css").write_text(stylesheet() + "\n", encoding="utf-8")
    problems = list(site.problems)
    nav_suites = [ctx["name"] for path, (tpl, ctx) in site.pages.items() if tpl == "suite.html"]
    common = {"site_title": site.title, "nav_suites": nav_suites, "n_inputs": n_inputs, "problems": problems}
    written = 0
    for path in sorted(site.pages):
        template, ctx = site.pages[path]
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            html = env.get_template(template).render(**common, **ctx)
        except TemplateError as exc:
            problems.append(f"page {path}: cannot render: {exc}")
            continue
        target.write_text(html, encoding="utf-8")
        written += 1
    # pages of an earlier report into the same folder that this one does not have (a task no
    # longer in the inputs) would be stale: only our own page folders are cleaned
    for sub in ("tasks", "suites"):
        for old in sorted((out / sub).glob("*.html")):
            if f"{sub}/{old.name}" not in site.pages:
                old.unlink()
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return SiteResult(out=out, pages=written, bytes=size, problems=problems)


def build_site(paths: Sequence[Path], out: Path, title: str = "veriscale report") -> SiteResult:
    """Load ``paths`` (evaluation and/or scale run folders), build the views, write the site."""
    inputs = load_inputs(paths)
    site = build_views(inputs, title=title)
    return write_site(site, out, len(paths))
