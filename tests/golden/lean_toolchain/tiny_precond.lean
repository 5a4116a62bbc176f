-- veriscale: task tiny_clamp, precond checks (2 cases)
import Std.Data.HashMap

-- !benchmark @start task_aux

-- !benchmark @end task_aux

-- !benchmark @start solution_aux
def bound : Int := 100
-- !benchmark @end solution_aux

-- !benchmark @start precond_aux
@[reducible, simp] def small (a : Int) : Prop := a < 1000
-- !benchmark @end precond_aux

@[reducible, simp]
def clampAdd_precond (a : Int) (b : Nat) : Prop :=
  -- !benchmark @start precond
  small a
  -- !benchmark @end precond

#print "<<vs:1e2337a02b3c:0:begin>>"
#guard decide (clampAdd_precond (-5) (3))
#print "<<vs:1e2337a02b3c:0:end>>"

#print "<<vs:1e2337a02b3c:1:begin>>"
#guard decide (clampAdd_precond (2000) (0))
#print "<<vs:1e2337a02b3c:1:end>>"
