-- the mod's own units
kessel.unit_type{ id = "guards", class = "foot", name = "Guards" }
kessel.unit_type{ id = "inf", class = "foot", name = "Line infantry" }
