/* The FMI 2.0 interface of the FMU (Functional Mock-up Interface 2.0.4, Modelica
 * Association 2022: section 2.1 the common functions, 3.2 Model Exchange, 4.2
 * Co-Simulation).  The types and signatures below are written from the standard's text
 * for this FMU; what it does not offer (Integer/Boolean/String variables, FMU states,
 * directional derivatives, input derivatives, asynchronous steps) answers fmi2Error
 * with a log message, as the standard allows when the capability flag is false.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "phx.h"

#if defined(_WIN32)
#define PHX_EXPORT __declspec(dllexport)
#else
#define PHX_EXPORT __attribute__((visibility("default")))
#endif

/* -- FMI 2.0 types (standard, section 2.1.2) ----------------------------------------- */
typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;
#define fmi2True 1
#define fmi2False 0
typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef enum { fmi2DoStepStatus, fmi2PendingStatus, fmi2LastSuccessfulTime,
               fmi2Terminated } fmi2StatusKind;
typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment env, fmi2String instanceName,
                                   fmi2Status status, fmi2String category,
                                   fmi2String message, ...);
typedef void *(*fmi2CallbackAllocateMemory)(size_t nobj, size_t size);
typedef void (*fmi2CallbackFreeMemory)(void *obj);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment env, fmi2Status status);
typedef struct {
    const fmi2CallbackLogger logger;
    const fmi2CallbackAllocateMemory allocateMemory;
    const fmi2CallbackFreeMemory freeMemory;
    const fmi2StepFinished stepFinished;
    const fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;
typedef struct {
    fmi2Boolean newDiscreteStatesNeeded;
    fmi2Boolean terminateSimulation;
    fmi2Boolean nominalsOfContinuousStatesChanged;
    fmi2Boolean valuesOfContinuousStatesChanged;
    fmi2Boolean nextEventTimeDefined;
    fmi2Real nextEventTime;
} fmi2EventInfo;

/* -- one instance --------------------------------------------------------------------- */
enum { MODE_INSTANTIATED, MODE_INITIALIZATION, MODE_EVENT, MODE_CONTINUOUS, MODE_STEP,
       MODE_TERMINATED };

typedef struct {
    phx_state s;
    int co_simulation;
    int mode;
    int logging;
    char name[128];
    fmi2CallbackLogger log;
    fmi2CallbackFreeMemory free_memory;
    fmi2ComponentEnvironment env;
} Instance;

static void logf_(Instance *inst, fmi2Status status, const char *category, const char *fmt,
                  ...) {
    char text[512];
    va_list ap;
    if (!inst || !inst->log || (!inst->logging && status == fmi2OK)) return;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* the message goes as an argument, never as the format (it may hold a '%') */
    inst->log(inst->env, inst->name, status, category, "%s", text);
}

static fmi2Status refuse(fmi2Component c, const char *what) {
    logf_((Instance *)c, fmi2Error, "logStatusError", "%s is not supported by this FMU", what);
    return fmi2Error;
}

/* -- common functions (standard 2.1.4 ff.) -------------------------------------------- */
PHX_EXPORT const char *fmi2GetTypesPlatform(void) { return "default"; }

PHX_EXPORT const char *fmi2GetVersion(void) { return "2.0"; }

PHX_EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn,
                                          size_t nCategories, const fmi2String categories[]) {
    (void)nCategories; (void)categories;
    ((Instance *)c)->logging = loggingOn;
    return fmi2OK;
}

PHX_EXPORT fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType,
                                         fmi2String fmuGUID, fmi2String fmuResourceLocation,
                                         const fmi2CallbackFunctions *functions,
                                         fmi2Boolean visible, fmi2Boolean loggingOn) {
    (void)fmuResourceLocation; (void)visible;
    fmi2CallbackLogger log = functions ? functions->logger : NULL;
    fmi2ComponentEnvironment env = functions ? functions->componentEnvironment : NULL;
    if (fmuGUID && strcmp(fmuGUID, PHX_TOKEN) != 0) {
        if (log) log(env, instanceName, fmi2Error, "logStatusError",
                     "the GUID does not match modelDescription.xml");
        return NULL;
    }
    Instance *inst = functions && functions->allocateMemory
                     ? (Instance *)functions->allocateMemory(1, sizeof(Instance))
                     : (Instance *)calloc(1, sizeof(Instance));
    if (!inst) return NULL;
    memset(inst, 0, sizeof(Instance));
    phx_reset(&inst->s);
    inst->co_simulation = fmuType == fmi2CoSimulation;
    inst->mode = MODE_INSTANTIATED;
    inst->logging = loggingOn;
    inst->log = log;
    inst->env = env;
    inst->free_memory = functions && functions->allocateMemory ? functions->freeMemory : NULL;
    snprintf(inst->name, sizeof inst->name, "%s", instanceName ? instanceName : "");
    return inst;
}

PHX_EXPORT void fmi2FreeInstance(fmi2Component c) {
    Instance *inst = (Instance *)c;
    if (!inst) return;
    if (inst->free_memory) inst->free_memory(inst);
    else free(inst);
}

PHX_EXPORT fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined,
                                          fmi2Real tolerance, fmi2Real startTime,
                                          fmi2Boolean stopTimeDefined, fmi2Real stopTime) {
    (void)toleranceDefined; (void)tolerance; (void)stopTimeDefined; (void)stopTime;
    ((Instance *)c)->s.t = startTime;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
    ((Instance *)c)->mode = MODE_INITIALIZATION;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
    Instance *inst = (Instance *)c;
    inst->mode = inst->co_simulation ? MODE_STEP : MODE_EVENT;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2Terminate(fmi2Component c) {
    ((Instance *)c)->mode = MODE_TERMINATED;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2Reset(fmi2Component c) {
    Instance *inst = (Instance *)c;
    phx_reset(&inst->s);
    inst->mode = MODE_INSTANTIATED;
    return fmi2OK;
}

/* -- Real variables: value references of phx_config.h -------------------------------- */
static fmi2Status get_one(Instance *inst, fmi2ValueReference vr, double *value) {
    if (phx_get(&inst->s, (unsigned)vr, value)) return fmi2OK;
    logf_(inst, fmi2Error, "logStatusError", "no Real variable has value reference %u",
          (unsigned)vr);
    return fmi2Error;
}

static fmi2Status set_one(Instance *inst, fmi2ValueReference vr, double value) {
    if (phx_set(&inst->s, (unsigned)vr, value, inst->mode != MODE_STEP)) return fmi2OK;
    logf_(inst, fmi2Error, "logStatusError",
          "the variable with value reference %u cannot be set now", (unsigned)vr);
    return fmi2Error;
}

PHX_EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                  fmi2Real value[]) {
    for (size_t i = 0; i < nvr; ++i)
        if (get_one((Instance *)c, vr[i], &value[i]) != fmi2OK) return fmi2Error;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                  const fmi2Real value[]) {
    for (size_t i = 0; i < nvr; ++i)
        if (set_one((Instance *)c, vr[i], value[i]) != fmi2OK) return fmi2Error;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[],
                                     size_t nvr, fmi2Integer value[]) {
    (void)vr; (void)value;
    return nvr ? refuse(c, "an Integer variable") : fmi2OK;
}

PHX_EXPORT fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[],
                                     size_t nvr, fmi2Boolean value[]) {
    (void)vr; (void)value;
    return nvr ? refuse(c, "a Boolean variable") : fmi2OK;
}

PHX_EXPORT fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[],
                                    size_t nvr, fmi2String value[]) {
    (void)vr; (void)value;
    return nvr ? refuse(c, "a String variable") : fmi2OK;
}

PHX_EXPORT fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[],
                                     size_t nvr, const fmi2Integer value[]) {
    (void)vr; (void)value;
    return nvr ? refuse(c, "an Integer variable") : fmi2OK;
}

PHX_EXPORT fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[],
                                     size_t nvr, const fmi2Boolean value[]) {
    (void)vr; (void)value;
    return nvr ? refuse(c, "a Boolean variable") : fmi2OK;
}

PHX_EXPORT fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[],
                                    size_t nvr, const fmi2String value[]) {
    (void)vr; (void)value;
    return nvr ? refuse(c, "a String variable") : fmi2OK;
}

/* -- FMU states and derivatives: not offered (capability flags false) ---------------- */
PHX_EXPORT fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *FMUstate) {
    (void)FMUstate;
    return refuse(c, "getting the FMU state");
}

PHX_EXPORT fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate FMUstate) {
    (void)FMUstate;
    return refuse(c, "setting the FMU state");
}

PHX_EXPORT fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *FMUstate) {
    (void)FMUstate;
    return refuse(c, "freeing an FMU state");
}

PHX_EXPORT fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate FMUstate,
                                                 size_t *size) {
    (void)FMUstate; (void)size;
    return refuse(c, "serializing the FMU state");
}

PHX_EXPORT fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate FMUstate,
                                            fmi2Byte serializedState[], size_t size) {
    (void)FMUstate; (void)serializedState; (void)size;
    return refuse(c, "serializing the FMU state");
}

PHX_EXPORT fmi2Status fmi2DeSerializeFMUstate(fmi2Component c,
                                              const fmi2Byte serializedState[], size_t size,
                                              fmi2FMUstate *FMUstate) {
    (void)serializedState; (void)size; (void)FMUstate;
    return refuse(c, "deserializing an FMU state");
}

PHX_EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c,
                                                   const fmi2ValueReference vUnknown_ref[],
                                                   size_t nUnknown,
                                                   const fmi2ValueReference vKnown_ref[],
                                                   size_t nKnown, const fmi2Real dvKnown[],
                                                   fmi2Real dvUnknown[]) {
    (void)vUnknown_ref; (void)nUnknown; (void)vKnown_ref; (void)nKnown; (void)dvKnown;
    (void)dvUnknown;
    return refuse(c, "fmi2GetDirectionalDerivative");
}

/* -- Model Exchange (standard, section 3.2) ------------------------------------------- */
PHX_EXPORT fmi2Status fmi2EnterEventMode(fmi2Component c) {
    ((Instance *)c)->mode = MODE_EVENT;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo *eventInfo) {
    (void)c;
    /* no events: nothing changes, no time event is scheduled */
    eventInfo->newDiscreteStatesNeeded = fmi2False;
    eventInfo->terminateSimulation = fmi2False;
    eventInfo->nominalsOfContinuousStatesChanged = fmi2False;
    eventInfo->valuesOfContinuousStatesChanged = fmi2False;
    eventInfo->nextEventTimeDefined = fmi2False;
    eventInfo->nextEventTime = 0.0;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
    ((Instance *)c)->mode = MODE_CONTINUOUS;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component c,
                                                  fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                                  fmi2Boolean *enterEventMode,
                                                  fmi2Boolean *terminateSimulation) {
    (void)c; (void)noSetFMUStatePriorToCurrentPoint;
    *enterEventMode = fmi2False;
    *terminateSimulation = fmi2False;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time) {
    ((Instance *)c)->s.t = time;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t nx) {
    Instance *inst = (Instance *)c;
    if (nx != (size_t)PHX_N) return refuse(c, "a wrong number of states");
    for (size_t i = 0; i < nx; ++i) inst->s.x[i] = x[i];
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real derivatives[], size_t nx) {
    Instance *inst = (Instance *)c;
    double dx[PHX_NN];
    if (nx != (size_t)PHX_N) return refuse(c, "a wrong number of states");
    phx_derivatives(&inst->s, dx);
    for (size_t i = 0; i < nx; ++i) derivatives[i] = dx[i];
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real eventIndicators[],
                                             size_t ni) {
    (void)eventIndicators;
    return ni ? refuse(c, "event indicators") : fmi2OK;
}

PHX_EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t nx) {
    Instance *inst = (Instance *)c;
    if (nx != (size_t)PHX_N) return refuse(c, "a wrong number of states");
    for (size_t i = 0; i < nx; ++i) x[i] = inst->s.x[i];
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x_nominal[],
                                                        size_t nx) {
    (void)c;
    for (size_t i = 0; i < nx; ++i) x_nominal[i] = 1.0;
    return fmi2OK;
}

/* -- Co-Simulation (standard, section 4.2) -------------------------------------------- */
PHX_EXPORT fmi2Status fmi2SetRealInputDerivatives(fmi2Component c,
                                                  const fmi2ValueReference vr[], size_t nvr,
                                                  const fmi2Integer order[],
                                                  const fmi2Real value[]) {
    (void)vr; (void)nvr; (void)order; (void)value;
    return refuse(c, "fmi2SetRealInputDerivatives (inputs are held over a step)");
}

PHX_EXPORT fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c,
                                                   const fmi2ValueReference vr[], size_t nvr,
                                                   const fmi2Integer order[],
                                                   fmi2Real value[]) {
    (void)vr; (void)nvr; (void)order; (void)value;
    return refuse(c, "fmi2GetRealOutputDerivatives");
}

PHX_EXPORT fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint,
                                 fmi2Real communicationStepSize,
                                 fmi2Boolean noSetFMUStatePriorToCurrentPoint) {
    Instance *inst = (Instance *)c;
    (void)noSetFMUStatePriorToCurrentPoint;
    inst->s.t = currentCommunicationPoint;
    if (phx_advance(&inst->s, communicationStepSize)) {
        logf_(inst, fmi2Error, "logStatusError", "%s", inst->s.message);
        return fmi2Error;
    }
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2CancelStep(fmi2Component c) {
    return refuse(c, "fmi2CancelStep (steps are synchronous)");
}

PHX_EXPORT fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind s,
                                    fmi2Status *value) {
    (void)c; (void)s;
    *value = fmi2OK;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s,
                                        fmi2Real *value) {
    if (s != fmi2LastSuccessfulTime) return refuse(c, "this Real status");
    *value = ((Instance *)c)->s.t;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind s,
                                           fmi2Integer *value) {
    (void)s; (void)value;
    return refuse(c, "an Integer status");
}

PHX_EXPORT fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s,
                                           fmi2Boolean *value) {
    if (s != fmi2Terminated) return refuse(c, "this Boolean status");
    *value = fmi2False;
    return fmi2OK;
}

PHX_EXPORT fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s,
                                          fmi2String *value) {
    (void)s; (void)value;
    return refuse(c, "a String status");
}
