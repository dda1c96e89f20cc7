x.gsc --format
