/* The FMI 3.0 interface of the FMU (Functional Mock-up Interface 3.0, Modelica
 * Association 2022: section 2.2 the common functions, 3.2 Model Exchange, 4.2
 * Co-Simulation).  The types and signatures below are written from the standard's text
 * for this FMU; the functions of features it does not offer (other variable types,
 * clocks, FMU states, directional derivatives, scheduled execution) answer fmi3Error
 * with a log message, as the standard allows when the capability flag is false.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "phx.h"

#if defined(_WIN32)
#define PHX_EXPORT __declspec(dllexport)
#else
#define PHX_EXPORT __attribute__((visibility("default")))
#endif

/* -- FMI 3.0 types (standard, section 2.2.2) ----------------------------------------- */
typedef void *fmi3Instance;
typedef void *fmi3InstanceEnvironment;
typedef void *fmi3FMUState;
typedef uint32_t fmi3ValueReference;
typedef float fmi3Float32;
typedef double fmi3Float64;
typedef int8_t fmi3Int8;
typedef uint8_t fmi3UInt8;
typedef int16_t fmi3Int16;
typedef uint16_t fmi3UInt16;
typedef int32_t fmi3Int32;
typedef uint32_t fmi3UInt32;
typedef int64_t fmi3Int64;
typedef uint64_t fmi3UInt64;
typedef bool fmi3Boolean;
typedef char fmi3Char;
typedef const fmi3Char *fmi3String;
typedef uint8_t fmi3Byte;
typedef const fmi3Byte *fmi3Binary;
typedef bool fmi3Clock;
typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;
typedef int fmi3DependencyKind;     /* an enumeration in the standard; not used here */
typedef int fmi3IntervalQualifier;  /* likewise */
typedef void (*fmi3LogMessageCallback)(fmi3InstanceEnvironment env, fmi3Status status,
                                       fmi3String category, fmi3String message);
typedef void (*fmi3IntermediateUpdateCallback)(
    fmi3InstanceEnvironment env, fmi3Float64 intermediateUpdateTime,
    fmi3Boolean intermediateVariableSetRequested, fmi3Boolean intermediateVariableGetAllowed,
    fmi3Boolean intermediateStepFinished, fmi3Boolean canReturnEarly,
    fmi3Boolean *earlyReturnRequested, fmi3Float64 *earlyReturnTime);
typedef void (*fmi3ClockUpdateCallback)(fmi3InstanceEnvironment env);
typedef void (*fmi3LockPreemptionCallback)(void);
typedef void (*fmi3UnlockPreemptionCallback)(void);

/* -- one instance --------------------------------------------------------------------- */
enum { MODE_INSTANTIATED, MODE_INITIALIZATION, MODE_EVENT, MODE_CONTINUOUS, MODE_STEP,
       MODE_TERMINATED };

typedef struct {
    phx_state s;
    int co_simulation;
    int mode;
    bool logging;
    char name[128];
    fmi3InstanceEnvironment env;
    fmi3LogMessageCallback log;
} Instance;

static void logf_(Instance *inst, fmi3Status status, const char *category, const char *fmt,
                  ...) {
    char text[512];
    va_list ap;
    if (!inst || !inst->log || (!inst->logging && status == fmi3OK)) return;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    inst->log(inst->env, status, category, text);
}

static fmi3Status refuse(fmi3Instance instance, const char *what) {
    logf_((Instance *)instance, fmi3Error, "logStatusError",
          "%s is not supported by this FMU", what);
    return fmi3Error;
}

static Instance *instantiate(fmi3String name, fmi3String token, fmi3Boolean logging,
                             fmi3InstanceEnvironment env, fmi3LogMessageCallback log,
                             int co_simulation) {
    if (token && strcmp(token, PHX_TOKEN) != 0) {
        if (log) log(env, fmi3Error, "logStatusError",
                     "the instantiation token does not match modelDescription.xml");
        return NULL;
    }
    Instance *inst = (Instance *)calloc(1, sizeof(Instance));
    if (!inst) return NULL;
    phx_reset(&inst->s);
    inst->co_simulation = co_simulation;
    inst->mode = MODE_INSTANTIATED;
    inst->logging = logging;
    inst->env = env;
    inst->log = log;
    snprintf(inst->name, sizeof inst->name, "%s", name ? name : "");
    return inst;
}

/* -- common functions (standard 2.2.4 ff.) -------------------------------------------- */
PHX_EXPORT const char *fmi3GetVersion(void) { return "3.0"; }

PHX_EXPORT fmi3Status fmi3SetDebugLogging(fmi3Instance instance, fmi3Boolean loggingOn,
                                          size_t nCategories, const fmi3String categories[]) {
    (void)nCategories; (void)categories;
    ((Instance *)instance)->logging = loggingOn;
    return fmi3OK;
}

PHX_EXPORT fmi3Instance fmi3InstantiateModelExchange(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage) {
    (void)resourcePath; (void)visible;
    return instantiate(instanceName, instantiationToken, loggingOn, instanceEnvironment,
                       logMessage, 0);
}

PHX_EXPORT fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3Boolean eventModeUsed,
    fmi3Boolean earlyReturnAllowed, const fmi3ValueReference requiredIntermediateVariables[],
    size_t nRequiredIntermediateVariables, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage, fmi3IntermediateUpdateCallback intermediateUpdate) {
    (void)resourcePath; (void)visible; (void)eventModeUsed; (void)earlyReturnAllowed;
    (void)requiredIntermediateVariables; (void)nRequiredIntermediateVariables;
    (void)intermediateUpdate;
    return instantiate(instanceName, instantiationToken, loggingOn, instanceEnvironment,
                       logMessage, 1);
}

PHX_EXPORT fmi3Instance fmi3InstantiateScheduledExecution(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath,
    fmi3Boolean visible, fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,
    fmi3LogMessageCallback logMessage, fmi3ClockUpdateCallback clockUpdate,
    fmi3LockPreemptionCallback lockPreemption, fmi3UnlockPreemptionCallback unlockPreemption) {
    (void)instanceName; (void)instantiationToken; (void)resourcePath; (void)visible;
    (void)loggingOn; (void)clockUpdate; (void)lockPreemption; (void)unlockPreemption;
    if (logMessage) logMessage(instanceEnvironment, fmi3Error, "logStatusError",
                               "scheduled execution is not supported by this FMU");
    return NULL;
}

PHX_EXPORT void fmi3FreeInstance(fmi3Instance instance) { free(instance); }

PHX_EXPORT fmi3Status fmi3EnterInitializationMode(fmi3Instance instance,
                                                  fmi3Boolean toleranceDefined,
                                                  fmi3Float64 tolerance, fmi3Float64 startTime,
                                                  fmi3Boolean stopTimeDefined,
                                                  fmi3Float64 stopTime) {
    Instance *inst = (Instance *)instance;
    (void)toleranceDefined; (void)tolerance; (void)stopTimeDefined; (void)stopTime;
    inst->s.t = startTime;
    inst->mode = MODE_INITIALIZATION;
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) {
    Instance *inst = (Instance *)instance;
    inst->mode = inst->co_simulation ? MODE_STEP : MODE_EVENT;
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3EnterEventMode(fmi3Instance instance) {
    ((Instance *)instance)->mode = MODE_EVENT;
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3Terminate(fmi3Instance instance) {
    ((Instance *)instance)->mode = MODE_TERMINATED;
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3Reset(fmi3Instance instance) {
    Instance *inst = (Instance *)instance;
    phx_reset(&inst->s);
    inst->mode = MODE_INSTANTIATED;
    return fmi3OK;
}

/* -- Float64 variables: value references of phx_config.h ----------------------------- */
static fmi3Status get_one(Instance *inst, fmi3ValueReference vr, double *value) {
    if (phx_get(&inst->s, (unsigned)vr, value)) return fmi3OK;
    logf_(inst, fmi3Error, "logStatusError", "no Float64 variable has value reference %u",
          (unsigned)vr);
    return fmi3Error;
}

static fmi3Status set_one(Instance *inst, fmi3ValueReference vr, double value) {
    if (phx_set(&inst->s, (unsigned)vr, value, inst->mode != MODE_STEP)) return fmi3OK;
    logf_(inst, fmi3Error, "logStatusError",
          "the variable with value reference %u cannot be set now", (unsigned)vr);
    return fmi3Error;
}

PHX_EXPORT fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference vr[],
                                     size_t nvr, fmi3Float64 values[], size_t nValues) {
    if (nValues != nvr) return refuse(instance, "an array variable");
    for (size_t i = 0; i < nvr; ++i)
        if (get_one((Instance *)instance, vr[i], &values[i]) != fmi3OK) return fmi3Error;
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3SetFloat64(fmi3Instance instance, const fmi3ValueReference vr[],
                                     size_t nvr, const fmi3Float64 values[], size_t nValues) {
    if (nValues != nvr) return refuse(instance, "an array variable");
    for (size_t i = 0; i < nvr; ++i)
        if (set_one((Instance *)instance, vr[i], values[i]) != fmi3OK) return fmi3Error;
    return fmi3OK;
}

/* every other variable type: this FMU has none (a call with no variables is fine) */
#define PHX_NO_TYPE(T)                                                                     \
    PHX_EXPORT fmi3Status fmi3Get##T(fmi3Instance instance, const fmi3ValueReference vr[], \
                                     size_t nvr, fmi3##T values[], size_t nValues) {       \
        (void)vr; (void)values; (void)nValues;                                             \
        return nvr ? refuse(instance, "a variable of type " #T) : fmi3OK;                  \
    }                                                                                      \
    PHX_EXPORT fmi3Status fmi3Set##T(fmi3Instance instance, const fmi3ValueReference vr[], \
                                     size_t nvr, const fmi3##T values[], size_t nValues) { \
        (void)vr; (void)values; (void)nValues;                                             \
        return nvr ? refuse(instance, "a variable of type " #T) : fmi3OK;                  \
    }
PHX_NO_TYPE(Float32)
PHX_NO_TYPE(Int8)
PHX_NO_TYPE(UInt8)
PHX_NO_TYPE(Int16)
PHX_NO_TYPE(UInt16)
PHX_NO_TYPE(Int32)
PHX_NO_TYPE(UInt32)
PHX_NO_TYPE(Int64)
PHX_NO_TYPE(UInt64)
PHX_NO_TYPE(Boolean)
PHX_NO_TYPE(String)

PHX_EXPORT fmi3Status fmi3GetBinary(fmi3Instance instance, const fmi3ValueReference vr[],
                                    size_t nvr, size_t valueSizes[], fmi3Binary values[],
                                    size_t nValues) {
    (void)vr; (void)valueSizes; (void)values; (void)nValues;
    return nvr ? refuse(instance, "a Binary variable") : fmi3OK;
}

PHX_EXPORT fmi3Status fmi3SetBinary(fmi3Instance instance, const fmi3ValueReference vr[],
                                    size_t nvr, const size_t valueSizes[],
                                    const fmi3Binary values[], size_t nValues) {
    (void)vr; (void)valueSizes; (void)values; (void)nValues;
    return nvr ? refuse(instance, "a Binary variable") : fmi3OK;
}

PHX_EXPORT fmi3Status fmi3GetClock(fmi3Instance instance, const fmi3ValueReference vr[],
                                   size_t nvr, fmi3Clock values[]) {
    (void)vr; (void)values;
    return nvr ? refuse(instance, "a clock") : fmi3OK;
}

PHX_EXPORT fmi3Status fmi3SetClock(fmi3Instance instance, const fmi3ValueReference vr[],
                                   size_t nvr, const fmi3Clock values[]) {
    (void)vr; (void)values;
    return nvr ? refuse(instance, "a clock") : fmi3OK;
}

/* -- dependencies, FMU states, derivatives: not offered (capability flags false) ------ */
PHX_EXPORT fmi3Status fmi3GetNumberOfVariableDependencies(fmi3Instance instance,
                                                          fmi3ValueReference vr,
                                                          size_t *nDependencies) {
    (void)vr; (void)nDependencies;
    return refuse(instance, "fmi3GetNumberOfVariableDependencies");
}

PHX_EXPORT fmi3Status fmi3GetVariableDependencies(
    fmi3Instance instance, fmi3ValueReference dependent, size_t elementIndicesOfDependent[],
    fmi3ValueReference independents[], size_t elementIndicesOfIndependents[],
    fmi3DependencyKind dependencyKinds[], size_t nDependencies) {
    (void)dependent; (void)elementIndicesOfDependent; (void)independents;
    (void)elementIndicesOfIndependents; (void)dependencyKinds; (void)nDependencies;
    return refuse(instance, "fmi3GetVariableDependencies");
}

PHX_EXPORT fmi3Status fmi3GetFMUState(fmi3Instance instance, fmi3FMUState *FMUState) {
    (void)FMUState;
    return refuse(instance, "getting the FMU state");
}

PHX_EXPORT fmi3Status fmi3SetFMUState(fmi3Instance instance, fmi3FMUState FMUState) {
    (void)FMUState;
    return refuse(instance, "setting the FMU state");
}

PHX_EXPORT fmi3Status fmi3FreeFMUState(fmi3Instance instance, fmi3FMUState *FMUState) {
    (void)FMUState;
    return refuse(instance, "freeing an FMU state");
}

PHX_EXPORT fmi3Status fmi3SerializedFMUStateSize(fmi3Instance instance, fmi3FMUState FMUState,
                                                 size_t *size) {
    (void)FMUState; (void)size;
    return refuse(instance, "serializing the FMU state");
}

PHX_EXPORT fmi3Status fmi3SerializeFMUState(fmi3Instance instance, fmi3FMUState FMUState,
                                            fmi3Byte serializedState[], size_t size) {
    (void)FMUState; (void)serializedState; (void)size;
    return refuse(instance, "serializing the FMU state");
}

PHX_EXPORT fmi3Status fmi3DeserializeFMUState(fmi3Instance instance,
                                              const fmi3Byte serializedState[], size_t size,
                                              fmi3FMUState *FMUState) {
    (void)serializedState; (void)size; (void)FMUState;
    return refuse(instance, "deserializing an FMU state");
}

PHX_EXPORT fmi3Status fmi3GetDirectionalDerivative(
    fmi3Instance instance, const fmi3ValueReference unknowns[], size_t nUnknowns,
    const fmi3ValueReference knowns[], size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
    fmi3Float64 sensitivity[], size_t nSensitivity) {
    (void)unknowns; (void)nUnknowns; (void)knowns; (void)nKnowns; (void)seed; (void)nSeed;
    (void)sensitivity; (void)nSensitivity;
    return refuse(instance, "fmi3GetDirectionalDerivative");
}

PHX_EXPORT fmi3Status fmi3GetAdjointDerivative(
    fmi3Instance instance, const fmi3ValueReference unknowns[], size_t nUnknowns,
    const fmi3ValueReference knowns[], size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
    fmi3Float64 sensitivity[], size_t nSensitivity) {
    (void)unknowns; (void)nUnknowns; (void)knowns; (void)nKnowns; (void)seed; (void)nSeed;
    (void)sensitivity; (void)nSensitivity;
    return refuse(instance, "fmi3GetAdjointDerivative");
}

/* -- configuration mode and clocks: the FMU has no structural parameters nor clocks -- */
PHX_EXPORT fmi3Status fmi3EnterConfigurationMode(fmi3Instance instance) {
    return refuse(instance, "configuration mode");
}

PHX_EXPORT fmi3Status fmi3ExitConfigurationMode(fmi3Instance instance) {
    return refuse(instance, "configuration mode");
}

PHX_EXPORT fmi3Status fmi3GetIntervalDecimal(fmi3Instance instance,
                                             const fmi3ValueReference vr[], size_t nvr,
                                             fmi3Float64 intervals[],
                                             fmi3IntervalQualifier qualifiers[]) {
    (void)vr; (void)nvr; (void)intervals; (void)qualifiers;
    return refuse(instance, "a clock");
}

PHX_EXPORT fmi3Status fmi3GetIntervalFraction(fmi3Instance instance,
                                              const fmi3ValueReference vr[], size_t nvr,
                                              fmi3UInt64 counters[], fmi3UInt64 resolutions[],
                                              fmi3IntervalQualifier qualifiers[]) {
    (void)vr; (void)nvr; (void)counters; (void)resolutions; (void)qualifiers;
    return refuse(instance, "a clock");
}

PHX_EXPORT fmi3Status fmi3GetShiftDecimal(fmi3Instance instance, const fmi3ValueReference vr[],
                                          size_t nvr, fmi3Float64 shifts[]) {
    (void)vr; (void)nvr; (void)shifts;
    return refuse(instance, "a clock");
}

PHX_EXPORT fmi3Status fmi3GetShiftFraction(fmi3Instance instance, const fmi3ValueReference vr[],
                                           size_t nvr, fmi3UInt64 counters[],
                                           fmi3UInt64 resolutions[]) {
    (void)vr; (void)nvr; (void)counters; (void)resolutions;
    return refuse(instance, "a clock");
}

PHX_EXPORT fmi3Status fmi3SetIntervalDecimal(fmi3Instance instance,
                                             const fmi3ValueReference vr[], size_t nvr,
                                             const fmi3Float64 intervals[]) {
    (void)vr; (void)nvr; (void)intervals;
    return refuse(instance, "a clock");
}

PHX_EXPORT fmi3Status fmi3SetIntervalFraction(fmi3Instance instance,
                                              const fmi3ValueReference vr[], size_t nvr,
                                              const fmi3UInt64 counters[],
                                              const fmi3UInt64 resolutions[]) {
    (void)vr; (void)nvr; (void)counters; (void)resolutions;
    return refuse(instance, "a clock");
}

PHX_EXPORT fmi3Status fmi3SetShiftDecimal(fmi3Instance instance, const fmi3ValueReference vr[],
                                          size_t nvr, const fmi3Float64 shifts[]) {
    (void)vr; (void)nvr; (void)shifts;
    return refuse(instance, "a clock");
}

PHX_EXPORT fmi3Status fmi3SetShiftFraction(fmi3Instance instance, const fmi3ValueReference vr[],
                                           size_t nvr, const fmi3UInt64 counters[],
                                           const fmi3UInt64 resolutions[]) {
    (void)vr; (void)nvr; (void)counters; (void)resolutions;
    return refuse(instance, "a clock");
}

PHX_EXPORT fmi3Status fmi3EvaluateDiscreteStates(fmi3Instance instance) {
    (void)instance;
    return fmi3OK;  /* no discrete states */
}

PHX_EXPORT fmi3Status fmi3UpdateDiscreteStates(
    fmi3Instance instance, fmi3Boolean *discreteStatesNeedUpdate,
    fmi3Boolean *terminateSimulation, fmi3Boolean *nominalsOfContinuousStatesChanged,
    fmi3Boolean *valuesOfContinuousStatesChanged, fmi3Boolean *nextEventTimeDefined,
    fmi3Float64 *nextEventTime) {
    (void)instance;
    /* no events: nothing changes, no time event is scheduled */
    if (discreteStatesNeedUpdate) *discreteStatesNeedUpdate = false;
    if (terminateSimulation) *terminateSimulation = false;
    if (nominalsOfContinuousStatesChanged) *nominalsOfContinuousStatesChanged = false;
    if (valuesOfContinuousStatesChanged) *valuesOfContinuousStatesChanged = false;
    if (nextEventTimeDefined) *nextEventTimeDefined = false;
    if (nextEventTime) *nextEventTime = 0.0;
    return fmi3OK;
}

/* -- Model Exchange (standard, section 3.2) ------------------------------------------- */
PHX_EXPORT fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance) {
    ((Instance *)instance)->mode = MODE_CONTINUOUS;
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance,
                                                  fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                                  fmi3Boolean *enterEventMode,
                                                  fmi3Boolean *terminateSimulation) {
    (void)instance; (void)noSetFMUStatePriorToCurrentPoint;
    *enterEventMode = false;
    *terminateSimulation = false;
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time) {
    ((Instance *)instance)->s.t = time;
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3SetContinuousStates(fmi3Instance instance,
                                              const fmi3Float64 continuousStates[],
                                              size_t nContinuousStates) {
    Instance *inst = (Instance *)instance;
    if (nContinuousStates != (size_t)PHX_N) return refuse(instance, "a wrong number of states");
    for (size_t i = 0; i < nContinuousStates; ++i) inst->s.x[i] = continuousStates[i];
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3GetContinuousStates(fmi3Instance instance,
                                              fmi3Float64 continuousStates[],
                                              size_t nContinuousStates) {
    Instance *inst = (Instance *)instance;
    if (nContinuousStates != (size_t)PHX_N) return refuse(instance, "a wrong number of states");
    for (size_t i = 0; i < nContinuousStates; ++i) continuousStates[i] = inst->s.x[i];
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance,
                                                        fmi3Float64 derivatives[],
                                                        size_t nContinuousStates) {
    Instance *inst = (Instance *)instance;
    double dx[PHX_NN];
    if (nContinuousStates != (size_t)PHX_N) return refuse(instance, "a wrong number of states");
    phx_derivatives(&inst->s, dx);
    for (size_t i = 0; i < nContinuousStates; ++i) derivatives[i] = dx[i];
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3GetEventIndicators(fmi3Instance instance,
                                             fmi3Float64 eventIndicators[],
                                             size_t nEventIndicators) {
    (void)eventIndicators;
    return nEventIndicators ? refuse(instance, "event indicators") : fmi3OK;
}

PHX_EXPORT fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance instance,
                                                        fmi3Float64 nominals[],
                                                        size_t nContinuousStates) {
    (void)instance;
    for (size_t i = 0; i < nContinuousStates; ++i) nominals[i] = 1.0;
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance instance,
                                                     size_t *nEventIndicators) {
    (void)instance;
    *nEventIndicators = 0;
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance instance,
                                                      size_t *nContinuousStates) {
    (void)instance;
    *nContinuousStates = PHX_N;
    return fmi3OK;
}

/* -- Co-Simulation (standard, section 4.2) -------------------------------------------- */
PHX_EXPORT fmi3Status fmi3EnterStepMode(fmi3Instance instance) {
    ((Instance *)instance)->mode = MODE_STEP;
    return fmi3OK;
}

PHX_EXPORT fmi3Status fmi3GetOutputDerivatives(fmi3Instance instance,
                                               const fmi3ValueReference vr[], size_t nvr,
                                               const fmi3Int32 orders[], fmi3Float64 values[],
                                               size_t nValues) {
    (void)vr; (void)nvr; (void)orders; (void)values; (void)nValues;
    return refuse(instance, "fmi3GetOutputDerivatives");
}

PHX_EXPORT fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 currentCommunicationPoint,
                                 fmi3Float64 communicationStepSize,
                                 fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                 fmi3Boolean *eventHandlingNeeded,
                                 fmi3Boolean *terminateSimulation, fmi3Boolean *earlyReturn,
                                 fmi3Float64 *lastSuccessfulTime) {
    Instance *inst = (Instance *)instance;
    (void)noSetFMUStatePriorToCurrentPoint;
    *eventHandlingNeeded = false;
    *terminateSimulation = false;
    *earlyReturn = false;
    inst->s.t = currentCommunicationPoint;
    if (phx_advance(&inst->s, communicationStepSize)) {
        *lastSuccessfulTime = inst->s.t;
        logf_(inst, fmi3Error, "logStatusError", "%s", inst->s.message);
        return fmi3Error;
    }
    *lastSuccessfulTime = inst->s.t;
    return fmi3OK;
}

/* -- Scheduled Execution: not offered ------------------------------------------------- */
PHX_EXPORT fmi3Status fmi3ActivateModelPartition(fmi3Instance instance,
                                                 fmi3ValueReference clockReference,
                                                 fmi3Float64 activationTime) {
    (void)clockReference; (void)activationTime;
    return refuse(instance, "scheduled execution");
}
