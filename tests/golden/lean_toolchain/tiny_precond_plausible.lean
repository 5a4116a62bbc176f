-- veriscale: task tiny_clamp, precond plausible checks (2 cases)
import Plausible
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

#print "<<vs:46d19e990d69:0:begin>>"
example : (clampAdd_precond (-5) (3)) := by
  unfold clampAdd_precond
  simp_all! (config := { failIfUnchanged := false })
  plausible ( config := { numInst := 1000, maxSize := 100, numRetries := 20, randomSeed := some 42})
#print "<<vs:46d19e990d69:0:end>>"

#print "<<vs:46d19e990d69:1:begin>>"
example : ¬(clampAdd_precond (-5) (3)) := by
  unfold clampAdd_precond
  simp_all! (config := { failIfUnchanged := false })
  plausible ( config := { numInst := 1000, maxSize := 100, numRetries := 20, randomSeed := some 42})
#print "<<vs:46d19e990d69:1:end>>"
