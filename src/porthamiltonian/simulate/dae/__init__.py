"""Descriptor systems (pH-DAEs): consistent initialization (:mod:`.initialize`), the
structure-preserving midpoint / discrete-gradient step (:mod:`.midpoint`), its loop
(:mod:`.loop`) and SUNDIALS IDA (:mod:`.ida`)."""
