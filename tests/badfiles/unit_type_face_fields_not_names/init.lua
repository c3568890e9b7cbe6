-- A unit type's `face_fields` or `class` that is no string was accepted: a scenario's face
-- `"1-2"` was then refused as "`1-2` is not a face of unit type `weird` ()", an empty list.
kessel.ruleset{ name = "face_fields", sides = { "red", "blue" } }
kessel.unit_type{ id = "weird", class = "foot", name = "Weird",
  face_fields = { {}, 5 } }
