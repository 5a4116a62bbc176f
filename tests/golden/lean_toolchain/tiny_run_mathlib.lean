-- veriscale: task tiny_clamp, run checks (1 cases)
import Mathlib
import Std.Data.HashMap

-- !benchmark @start task_aux

-- !benchmark @end task_aux

-- !benchmark @start solution_aux
def bound : Int := 100
-- !benchmark @end solution_aux

-- !benchmark @start precond_aux
def small (a : Int) : Prop := a < 1000
-- !benchmark @end precond_aux

@[reducible, simp]
def clampAdd_precond (a : Int) (b : Nat) : Prop :=
  -- !benchmark @start precond
  small a
  -- !benchmark @end precond

-- !benchmark @start code_aux
def clampTo (x : Int) : Int := if x > bound then bound else x
-- !benchmark @end code_aux

def clampAdd (a : Int) (b : Nat) (h_precond : clampAdd_precond (a) (b)) : Int :=
  -- !benchmark @start code
  let s := a + b;
    clampTo s
  -- !benchmark @end code

#print "<<vs:b4c18e1a9397:0:begin>>"
#eval! clampAdd (-5) (3) (by sorry)
#print "<<vs:b4c18e1a9397:0:end>>"
