-- The parameters each RePh choice reads. An action sent with a parameter none of its rules reads is
-- refused, naming those it does read, citing the step's case: a misspelt or invented parameter was
-- passed over in silence, so the action was taken as if it had not been given (a Fortification
-- bought with `at = "C3"` for `hex`, an Escape with `dropped` for `drop`, a Melee Withdrawal
-- before `withdrawn` was read). `side` is the sender, not a parameter.
local C = require("rules.common")

-- in the order the kinds are declared (a kind declared again goes last, so re-declaring them in
-- this order keeps the order `kessel.legal` and `kessel info` list them in)
local ORDER = { "end_step", "start_refit", "climb_place", "melee_outcome", "escape", "repossess", "buy_rg",
  "buy_fortification", "smc_outside_perimeter", "idle_day", "shift", "prisoner", "hero_harden", "remove_fortification",
  "deploy", "promote", "keep_hs", "mg_exchange", "retain_set_dc", "harden_order", "set_up_fortification",
  "finish_setup", "set_up_hip", "set_up_unit", "set_up_retained" }
local PARAMS = {
  end_step = { pb = "9.6", rb = "11.6" },
  start_refit = { pb = "9.6", rb = "11.6", "initial" },
  climb_place = { pb = "9.601", "unit", "reached" },
  melee_outcome = { pb = "9.601", "hex", "level", "eliminated", "captured", "withdrawn" },
  escape = { pb = "9.606", rb = "11.6063", "units", "drop", "must" },
  repossess = { pb = "9.6071", "unit", "by" },
  prisoner = { pb = "9.608", rb = "11.608", "unit", "choice", "to" },
  keep_hs = { pb = "9.6111", rb = "11.6111", "unit" },
  hero_harden = { pb = "9.6112", rb = "11.6112", "hero", "unit" },
  harden_order = { pb = "9.6112", rb = "11.6112", "units" },
  promote = { pb = "11.6114", rb = "11.6114", "leader" },
  shift = { pb = "9.613", "units", "to", "drop" },
  deploy = { pb = "9.613", rb = "11.6063", "unit" },
  mg_exchange = { pb = "9.61421", rb = "11.6133", "mg", "lmg" },
  buy_rg = { pb = "9.617", "rg", "entry", "area" },
  buy_fortification = { pb = "9.619", "item", "count", "hex", "level" },
  set_up_fortification = { pb = "9.62022", "item", "hex", "count", "level" },
  finish_setup = { pb = "9.62021" },
  set_up_hip = { pb = "9.619", "unit" },
  set_up_unit = { pb = "9.62022", "unit", "hex" },
  set_up_retained = { pb = "9.62022", "unit", "hex", "level" },
  smc_outside_perimeter = { rb = "11.6059", "unit" },
  retain_set_dc = { rb = "11.6073", "unit" },
  remove_fortification = { rb = "11.615", "marker" },
  idle_day = { rb = "11.6121", "attack_chit", "bought" },
}

local function unread(a, p)
  local known = { kind = true, side = true }
  for _, k in ipairs(p) do known[k] = true end
  local extra = {}
  for k in pairs(a) do if not known[k] then extra[#extra + 1] = tostring(k) end end
  if #extra == 0 then return nil end
  table.sort(extra)
  local case = C.pb() and (p.pb or p.rb) or (p.rb or p.pb)
  local reads = #p > 0 and ("it reads " .. table.concat(p, ", ")) or "it takes no parameter"
  return C.refuse(case, string.format("%s has no parameter %s (%s)", a.kind,
    table.concat((function() local t = {} for _, k in ipairs(extra) do t[#t + 1] = "`" .. k .. "`" end return t end)(), ", "), reads))
end

assert(#ORDER == #C.sorted_keys(PARAMS), "every kind with its parameters is in ORDER")
for _, kind in ipairs(ORDER) do
  local h = kessel.action_handlers(kind)
  assert(h, "no action `" .. kind .. "` to check the parameters of")
  local p = PARAMS[kind]
  kessel.action{ kind = kind, rule = h.rule, description = h.description, secret = h.secret, apply = h.apply, enumerate = h.enumerate,
    -- the step's own refusal first (a choice that names nothing says what it needs), then this one
    validate = function(a)
      local r = h.validate(a)
      if r ~= nil and r ~= true and not (type(r) == "table" and r.message == nil and #r == 0) then return r end
      return unread(a, p)
    end }
end

return PARAMS
