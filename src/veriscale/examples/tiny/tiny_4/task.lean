-- !benchmark @start import type=solution

-- !benchmark @end import

-- !benchmark @start solution_aux

-- !benchmark @end solution_aux

-- !benchmark @start precond_aux

-- !benchmark @end precond_aux

@[reducible, simp]
def countOccurrences_precond (xs : List Int) (x : Int) : Prop :=
  -- !benchmark @start precond
  True
  -- !benchmark @end precond

-- !benchmark @start code_aux

-- !benchmark @end code_aux

def countOccurrences (xs : List Int) (x : Int) (h_precond : countOccurrences_precond (xs) (x)) : Nat :=
  -- !benchmark @start code
  (xs.filter (fun y => y == x)).length
  -- !benchmark @end code

-- !benchmark @start postcond_aux
def tinyCount (x : Int) : List Int → Nat
  | [] => 0
  | y :: rest => (if y = x then 1 else 0) + tinyCount x rest
-- !benchmark @end postcond_aux

@[reducible, simp]
def countOccurrences_postcond (xs : List Int) (x : Int) (result : Nat) (h_precond : countOccurrences_precond (xs) (x)) : Prop :=
  -- !benchmark @start postcond
  result = tinyCount x xs
  -- !benchmark @end postcond

-- !benchmark @start proof_aux

-- !benchmark @end proof_aux

theorem countOccurrences_spec_satisfied (xs : List Int) (x : Int) (h_precond : countOccurrences_precond (xs) (x)) :
    countOccurrences_postcond (xs) (x) (countOccurrences (xs) (x) h_precond) h_precond := by
  -- !benchmark @start proof
  sorry
  -- !benchmark @end proof
