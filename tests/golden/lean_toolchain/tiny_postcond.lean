-- veriscale: task tiny_clamp, postcond checks (2 cases)
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

#print "<<vs:2842a005295b:0:begin>>"
#guard decide (clampAdd_postcond (-5) (3) (-2) (by sorry))
#print "<<vs:2842a005295b:0:end>>"

#print "<<vs:2842a005295b:1:begin>>"
#guard decide (clampAdd_postcond (-5) (3) (100) (by sorry))
#print "<<vs:2842a005295b:1:end>>"
