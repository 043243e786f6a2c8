-- Argo CD health of a BenchmarkRun (serving.llmops.dev): a run to completion, Healthy once it Succeeded;
-- Degraded when it regressed against spec.reference and spec.reference.degradeOnRegression asks for that, or when
-- its greedy outputs diverged (QualitySuspect) and spec.quality.degradeOnSuspect asks for that.
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
local succeeded = condition(conditions, "Succeeded")
if stalled ~= nil and stalled.status == "True" then
  hs.status = "Degraded"
  hs.message = describe(stalled, "Stalled")
  return hs
end
if obj.status.phase == "Failed" then
  hs.status = "Degraded"
  hs.message = describe(succeeded, describe(condition(conditions, "Ready"), "Benchmark failed"))
  return hs
end

if obj.status.phase == "Succeeded" or (succeeded ~= nil and succeeded.status == "True") then
  local regressed = condition(conditions, "Regressed")
  local reference = obj.spec and obj.spec.reference
  if regressed ~= nil and regressed.status == "True" and reference ~= nil and reference.degradeOnRegression == true then
    hs.status = "Degraded"
    hs.message = describe(regressed, "Regressed")
    return hs
  end
  local suspect = condition(conditions, "QualitySuspect")
  local quality = obj.spec and obj.spec.quality
  if suspect ~= nil and suspect.status == "True" and quality ~= nil and quality.degradeOnSuspect == true then
    hs.status = "Degraded"
    hs.message = describe(suspect, "QualitySuspect")
    return hs
  end
  hs.status = "Healthy"
  local slo = condition(conditions, "SLOMet")
  if slo ~= nil and slo.status == "False" then
    hs.message = "Finished; " .. describe(slo, "SLO not met")
  else
    hs.message = describe(succeeded, "Finished")
  end
  return hs
end

local phase = obj.status.phase or "Pending"
local progress = ""
if obj.status.progress ~= nil then
  progress = " (" .. obj.status.progress .. " stages)"
end
local reconciling = condition(conditions, "Reconciling")
local detail = "benchmark in progress"
if reconciling ~= nil and reconciling.message ~= nil and reconciling.message ~= "" then
  detail = reconciling.message
end
hs.status = "Progressing"
hs.message = phase .. progress .. ": " .. detail
return hs
