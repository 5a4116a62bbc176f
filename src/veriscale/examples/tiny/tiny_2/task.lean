-- !benchmark @start import type=solution

-- !benchmark @end import

-- !benchmark @start solution_aux

-- !benchmark @end solution_aux

-- !benchmark @start precond_aux

-- !benchmark @end precond_aux

@[reducible, simp]
def maxArray_precond (a : Array Int) : Prop :=
  -- !benchmark @start precond
  a.size > 0
  -- !benchmark @end precond

-- !benchmark @start code_aux

-- !benchmark @end code_aux

def maxArray (a : Array Int) (h_precond : maxArray_precond (a)) : Int :=
  -- !benchmark @start code
  a.foldl (fun m x => if x > m then x else m) a[0]!
  -- !benchmark @end code

-- !benchmark @start postcond_aux

-- !benchmark @end postcond_aux

@[reducible, simp]
def maxArray_postcond (a : Array Int) (result : Int) (h_precond : maxArray_precond (a)) : Prop :=
  -- !benchmark @start postcond
  (∀ i, i < a.size → a[i]! ≤ result) ∧ (∃ i, i < a.size ∧ a[i]! = result)
  -- !benchmark @end postcond

-- !benchmark @start proof_aux

-- !benchmark @end proof_aux

theorem maxArray_spec_satisfied (a : Array Int) (h_precond : maxArray_precond (a)) :
    maxArray_postcond (a) (maxArray (a) h_precond) h_precond := by
  -- !benchmark @start proof
  sorry
  -- !benchmark @end proof
