-- !benchmark @start import type=solution

-- !benchmark @end import

-- !benchmark @start solution_aux

-- !benchmark @end solution_aux

-- !benchmark @start precond_aux

-- !benchmark @end precond_aux

@[reducible, simp]
def sumList_precond (xs : List Nat) : Prop :=
  -- !benchmark @start precond
  True
  -- !benchmark @end precond

-- !benchmark @start code_aux

-- !benchmark @end code_aux

def sumList (xs : List Nat) (h_precond : sumList_precond (xs)) : Nat :=
  -- !benchmark @start code
  xs.foldl (fun acc x => acc + x) 0
  -- !benchmark @end code

-- !benchmark @start postcond_aux
def tinySum : List Nat → Nat
  | [] => 0
  | x :: rest => x + tinySum rest
-- !benchmark @end postcond_aux

@[reducible, simp]
def sumList_postcond (xs : List Nat) (result : Nat) (h_precond : sumList_precond (xs)) : Prop :=
  -- !benchmark @start postcond
  result = tinySum xs
  -- !benchmark @end postcond

-- !benchmark @start proof_aux

-- !benchmark @end proof_aux

theorem sumList_spec_satisfied (xs : List Nat) (h_precond : sumList_precond (xs)) :
    sumList_postcond (xs) (sumList (xs) h_precond) h_precond := by
  -- !benchmark @start proof
  sorry
  -- !benchmark @end proof
