// plugin entry
