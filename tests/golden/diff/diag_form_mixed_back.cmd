diff diag_form.new.json diag_form.old.json
