diff --format json identical_v2.json identical.new.json
