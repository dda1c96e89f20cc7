@proj/crlf.flags
