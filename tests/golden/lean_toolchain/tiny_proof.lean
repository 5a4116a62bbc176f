-- veriscale: task tiny_clamp, proof check

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

-- !benchmark @start postcond_aux

-- !benchmark @end postcond_aux

@[reducible, simp]
def clampAdd_postcond (a : Int) (b : Nat) (result: Int) (h_precond : clampAdd_precond (a) (b)) : Prop :=
  -- !benchmark @start postcond
  result ≤ bound ∧ (a + b ≤ bound → result = a + b)
  -- !benchmark @end postcond

-- !benchmark @start proof_aux
-- helper lemmas would go here
-- !benchmark @end proof_aux

theorem clampAdd_postcond_satisfied (a: Int) (b: Nat) (h_precond : clampAdd_precond (a) (b)) :
    clampAdd_postcond (a) (b) (clampAdd (a) (b) h_precond) h_precond := by
  -- !benchmark @start proof
  simp [clampAdd_postcond]
  omega
  -- !benchmark @end proof

#print "<<vs:c7d0cb7ff6cc:0:begin>>"
#print axioms clampAdd_postcond_satisfied
#print "<<vs:c7d0cb7ff6cc:0:end>>"
