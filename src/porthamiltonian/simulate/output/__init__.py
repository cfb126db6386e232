"""What a run gives back: the recorder of saved points (:mod:`.recorder`), the results
(:mod:`.result`, :mod:`.dae_result`), failures with partial results (:mod:`.failure`),
plots (:mod:`.plot`) and the progress bar (:mod:`.progress`)."""
