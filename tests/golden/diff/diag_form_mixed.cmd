diff diag_form.old.json diag_form.new.json
