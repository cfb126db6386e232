"""Linear algebra of the implicit steps: Newton's method with cached dense/sparse LU
factorizations (:mod:`.newton`) and the wrapper of SUNDIALS IDA (:mod:`.sundials`)."""
