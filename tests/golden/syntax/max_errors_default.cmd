many_errors.gsc
