-- Argo CD health of a ModelServer (serving.llmops.dev), read from its kstatus-style conditions.
local hs = {}

local function condition(conditions, kind)
  for _, c in ipairs(conditions) do
    if c.type == kind then
      return c
    end
  end
  return nil
end

local function describe(c, fallback)
  if c ~= nil and c.message ~= nil and c.message ~= "" then
    if c.reason ~= nil and c.reason ~= "" then
      return c.reason .. ": " .. c.message
    end
    return c.message
  end
  return fallback
end

if obj.status == nil or obj.status.conditions == nil or #obj.status.conditions == 0 then
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to report status"
  return hs
end

local generation = obj.metadata.generation
local observed = obj.status.observedGeneration
if generation ~= nil and (observed == nil or observed < generation) then
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to observe generation " .. generation
  return hs
end

local conditions = obj.status.conditions
local stalled = condition(conditions, "Stalled")
if stalled ~= nil and stalled.status == "True" then
  hs.status = "Degraded"
  hs.message = describe(stalled, "Stalled")
  return hs
end

local degraded = condition(conditions, "Degraded")
if degraded ~= nil and degraded.status == "True" then
  hs.status = "Degraded"
  hs.message = describe(degraded, "Degraded")
  return hs
end

local ready = condition(conditions, "Ready")
local readyIsCurrent = ready ~= nil and (ready.observedGeneration == nil or generation == nil or ready.observedGeneration >= generation)
if ready ~= nil and ready.status == "True" and readyIsCurrent then
  hs.status = "Healthy"
  hs.message = describe(ready, "Ready")
  return hs
end

hs.status = "Progressing"
hs.message = describe(condition(conditions, "Reconciling"), describe(ready, "Waiting for the server to become ready"))
return hs
