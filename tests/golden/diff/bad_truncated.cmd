diff bad/truncated.json identical.new.json
