-- Argo CD health of a ServingExperiment (serving.llmops.dev): Progressing while its variants are tried one after
-- another, Healthy once every variant was tried and a winner named, Degraded when it stalled (the budget ran out, every
-- variant failed, or a name it needs is taken).
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

local ready = condition(conditions, "Ready")
if obj.status.phase == "Succeeded" and ready ~= nil and ready.status == "True" then
  hs.status = "Healthy"
  hs.message = describe(ready, "Every variant tried")
  return hs
end

local phase = obj.status.phase or "Pending"
local progress = ""
if obj.status.progress ~= nil then
  progress = " (" .. obj.status.progress .. ")"
end
local reconciling = condition(conditions, "Reconciling")
local detail = "variants in progress"
if reconciling ~= nil and reconciling.message ~= nil and reconciling.message ~= "" then
  detail = reconciling.message
end
hs.status = "Progressing"
hs.message = phase .. progress .. ": " .. detail
return hs
