-- veriscale: task tiny_clamp, postcond plausible checks (2 cases)
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

-- !benchmark @start postcond_aux

-- !benchmark @end postcond_aux

@[reducible, simp]
def clampAdd_postcond (a : Int) (b : Nat) (result: Int) (h_precond : clampAdd_precond (a) (b)) : Prop :=
  -- !benchmark @start postcond
  result ≤ bound ∧ (a + b ≤ bound → result = a + b)
  -- !benchmark @end postcond

#print "<<vs:563aaecef8bf:0:begin>>"
example : (clampAdd_postcond (90) (30) (120) (by sorry)) := by
  unfold clampAdd_postcond
  simp_all! (config := { failIfUnchanged := false })
  simp (config := { failIfUnchanged := false }) [*]
  plausible ( config := { numInst := 1000, maxSize := 100, numRetries := 20, randomSeed := some 42})
#print "<<vs:563aaecef8bf:0:end>>"

#print "<<vs:563aaecef8bf:1:begin>>"
example : ¬(clampAdd_postcond (90) (30) (120) (by sorry)) := by
  unfold clampAdd_postcond
  simp_all! (config := { failIfUnchanged := false })
  simp (config := { failIfUnchanged := false }) [*]
  plausible ( config := { numInst := 1000, maxSize := 100, numRetries := 20, randomSeed := some 42})
#print "<<vs:563aaecef8bf:1:end>>"
