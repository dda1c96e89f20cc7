diff moved_lines.old.json moved_lines.new.json
