@proj
