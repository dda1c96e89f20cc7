no_such_file.gsc
