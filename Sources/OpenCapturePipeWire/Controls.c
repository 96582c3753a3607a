// A node's controls: its PropInfo params (what each property is) and Props param (the values),
// read and written through a node proxy bound for the call.
#include "Private.h"

#include <spa/param/props.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

// MARK: Reading PropInfo

/// The range, default and menu a PropInfo `type` pod describes: a plain value (its default,
/// no range: any value of the type), or a choice (Range, Step, Enum) of Int, Long, Bool or
/// Float. 0 when the type is none of these (a string, a rectangle, ...).
static int control_type(const struct spa_pod *type, OCPWControl *control) {
    uint32_t count = 0, choice = SPA_CHOICE_None;
    const struct spa_pod *value = spa_pod_get_values(type, &count, &choice);
    if (count == 0) return 0;
    const void *body = SPA_POD_BODY_CONST(value);
    int64_t values[OCPW_MAX_MENU + 3];
    if (count > SPA_N_ELEMENTS(values)) count = SPA_N_ELEMENTS(values);
    switch (SPA_POD_TYPE(value)) {
    case SPA_TYPE_Bool:
        control->kind = OCPW_CONTROL_BOOL;
        for (uint32_t i = 0; i < count; i++) values[i] = ((const int32_t *)body)[i] != 0;
        break;
    case SPA_TYPE_Int:
        control->kind = OCPW_CONTROL_INT;
        for (uint32_t i = 0; i < count; i++) values[i] = ((const int32_t *)body)[i];
        break;
    case SPA_TYPE_Long:
        control->kind = OCPW_CONTROL_LONG;
        for (uint32_t i = 0; i < count; i++) values[i] = ((const int64_t *)body)[i];
        break;
    case SPA_TYPE_Float:
        // Floats travel as thousandths, so the integer API below carries them.
        control->kind = OCPW_CONTROL_FLOAT;
        for (uint32_t i = 0; i < count; i++) values[i] = (int64_t)(((const float *)body)[i] * 1000.0f);
        break;
    default:
        return 0;
    }
    control->default_value = values[0];
    control->step = 1;
    switch (choice) {
    case SPA_CHOICE_Range:
    case SPA_CHOICE_Step:
        if (count < 3) return 0;
        control->minimum = values[1];
        control->maximum = values[2];
        if (choice == SPA_CHOICE_Step && count >= 4 && values[3] > 0) control->step = values[3];
        break;
    case SPA_CHOICE_Enum:
        // Entry 0 is the default; the alternatives follow.
        control->minimum = control->maximum = values[0];
        for (uint32_t i = 1; i < count; i++) {
            if (values[i] < control->minimum) control->minimum = values[i];
            if (values[i] > control->maximum) control->maximum = values[i];
        }
        break;
    default:
        if (control->kind == OCPW_CONTROL_BOOL) {
            control->minimum = 0;
            control->maximum = 1;
        } else if (control->kind == OCPW_CONTROL_INT) {
            control->minimum = INT32_MIN;
            control->maximum = INT32_MAX;
        } else {
            control->minimum = INT64_MIN / 2;
            control->maximum = INT64_MAX / 2;
        }
        break;
    }
    return 1;
}

/// The menu a PropInfo `labels` struct gives: value, name pairs.
static void control_labels(const struct spa_pod *labels, OCPWControl *control) {
    if (!spa_pod_is_struct(labels)) return;
    struct spa_pod_parser parser;
    struct spa_pod_frame frame;
    spa_pod_parser_pod(&parser, labels);
    if (spa_pod_parser_push_struct(&parser, &frame) < 0) return;
    while (control->menu_count < OCPW_MAX_MENU) {
        int32_t value = 0;
        const char *name = NULL;
        if (spa_pod_parser_get_int(&parser, &value) < 0 || spa_pod_parser_get_string(&parser, &name) < 0) break;
        control->menu_values[control->menu_count] = value;
        snprintf(control->menu_names[control->menu_count], sizeof control->menu_names[0], "%s", name);
        control->menu_count++;
    }
    if (control->menu_count == 0) return;
    control->kind = OCPW_CONTROL_MENU;
    control->minimum = control->maximum = control->menu_values[0];
    for (int32_t i = 1; i < control->menu_count; i++) {
        if (control->menu_values[i] < control->minimum) control->minimum = control->menu_values[i];
        if (control->menu_values[i] > control->maximum) control->maximum = control->menu_values[i];
    }
}

/// One PropInfo param as a control; 0 when it describes no value this API carries.
static int control_from_prop_info(const struct spa_pod *param, OCPWControl *control) {
    memset(control, 0, sizeof *control);
    uint32_t id = 0;
    const char *description = NULL;
    const struct spa_pod *labels = NULL;
    if (spa_pod_parse_object(param, SPA_TYPE_OBJECT_PropInfo, NULL,
            SPA_PROP_INFO_id, SPA_POD_Id(&id),
            SPA_PROP_INFO_description, SPA_POD_OPT_String(&description),
            SPA_PROP_INFO_labels, SPA_POD_OPT_Pod(&labels)) < 0) return 0;
    // Found by hand: the parser's "P" skips a Choice (a range or step, as most types are).
    const struct spa_pod_prop *type = spa_pod_find_prop(param, NULL, SPA_PROP_INFO_type);
    if (type == NULL || !control_type(&type->value, control)) return 0;
    // The SPA v4l2 node's own properties (its device path, name and fd) are no controls.
    if (id == SPA_PROP_device || id == SPA_PROP_deviceName || id == SPA_PROP_deviceFd) return 0;
    control->id = id;
    snprintf(control->name, sizeof control->name, "%s", description != NULL ? description : "");
    if (labels != NULL) control_labels(labels, control);
    return 1;
}

// MARK: A node proxy for one call

struct control_query {
    OCPWControl *controls;
    int32_t capacity;
    int32_t count;
    /// For a Props read: the property asked for and its value.
    uint32_t prop_id;
    int64_t value;
    int found;
    /// An error the daemon reported on the node (a write it refused); 0 if none.
    int error;
};

static int64_t prop_value(const struct spa_pod *pod, int *ok) {
    *ok = 1;
    if (spa_pod_is_bool(pod)) return SPA_POD_VALUE(struct spa_pod_bool, pod) != 0;
    if (spa_pod_is_int(pod)) return SPA_POD_VALUE(struct spa_pod_int, pod);
    if (spa_pod_is_long(pod)) return SPA_POD_VALUE(struct spa_pod_long, pod);
    if (spa_pod_is_float(pod)) return (int64_t)(SPA_POD_VALUE(struct spa_pod_float, pod) * 1000.0f);
    if (spa_pod_is_id(pod)) return SPA_POD_VALUE(struct spa_pod_id, pod);
    *ok = 0;
    return 0;
}

static void on_control_param(void *data, int seq, uint32_t id, uint32_t index, uint32_t next, const struct spa_pod *param) {
    (void)seq, (void)index, (void)next;
    struct control_query *query = data;
    if (param == NULL) return;
    if (id == SPA_PARAM_PropInfo) {
        OCPWControl control;
        if (!control_from_prop_info(param, &control)) return;
        if (query->count < query->capacity) query->controls[query->count] = control;
        query->count++;
    } else if (id == SPA_PARAM_Props && spa_pod_is_object_type(param, SPA_TYPE_OBJECT_Props)) {
        const struct spa_pod_prop *prop = spa_pod_find_prop(param, NULL, query->prop_id);
        int ok = 0;
        if (prop != NULL) query->value = prop_value(&prop->value, &ok);
        if (ok) query->found = 1;
    }
}

static const struct pw_node_events control_events = {
    PW_VERSION_NODE_EVENTS,
    .param = on_control_param,
};

static void on_control_error(void *data, int seq, int res, const char *message) {
    (void)seq, (void)message;
    struct control_query *query = data;
    query->error = res < 0 ? res : -EIO;
}

static const struct pw_proxy_events control_proxy_events = {
    PW_VERSION_PROXY_EVENTS,
    .error = on_control_error,
};

static void ask_prop_info(struct pw_node *node, const void *argument) {
    (void)argument;
    pw_node_enum_params(node, 0, SPA_PARAM_PropInfo, 0, UINT32_MAX, NULL);
}

static void ask_props(struct pw_node *node, const void *argument) {
    (void)argument;
    pw_node_enum_params(node, 0, SPA_PARAM_Props, 0, UINT32_MAX, NULL);
}

struct control_write {
    uint32_t prop_id;
    int32_t kind;
    int64_t value;
};

static void ask_write(struct pw_node *node, const void *argument) {
    const struct control_write *write = argument;
    uint8_t buffer[256];
    struct spa_pod_builder builder = SPA_POD_BUILDER_INIT(buffer, sizeof buffer);
    struct spa_pod_frame frame;
    spa_pod_builder_push_object(&builder, &frame, SPA_TYPE_OBJECT_Props, SPA_PARAM_Props);
    spa_pod_builder_prop(&builder, write->prop_id, 0);
    switch (write->kind) {
    case OCPW_CONTROL_BOOL: spa_pod_builder_bool(&builder, write->value != 0); break;
    case OCPW_CONTROL_LONG: spa_pod_builder_long(&builder, write->value); break;
    case OCPW_CONTROL_FLOAT: spa_pod_builder_float(&builder, (float)write->value / 1000.0f); break;
    default: spa_pod_builder_int(&builder, (int32_t)write->value); break;
    }
    const struct spa_pod *props = spa_pod_builder_pop(&builder, &frame);
    pw_node_set_param(node, SPA_PARAM_Props, 0, props);
}

// MARK: API

int32_t ocpw_node_controls(OCPWContext *context, uint32_t node_id, OCPWControl *controls, int32_t capacity) {
    struct control_query query = {controls, capacity, 0, 0, 0, 0, 0};
    pw_thread_loop_lock(context->loop);
    int answered = ocpw_with_node(context, node_id, &control_events, &control_proxy_events, &query, ask_prop_info, NULL);
    pw_thread_loop_unlock(context->loop);
    return answered == 0 ? query.count : -1;
}

int32_t ocpw_node_control_value(OCPWContext *context, uint32_t node_id, uint32_t prop_id, int64_t *value) {
    struct control_query query = {NULL, 0, 0, prop_id, 0, 0, 0};
    pw_thread_loop_lock(context->loop);
    int answered = ocpw_with_node(context, node_id, &control_events, &control_proxy_events, &query, ask_props, NULL);
    pw_thread_loop_unlock(context->loop);
    if (answered != 0) return -1;
    if (!query.found) return 0;
    *value = query.value;
    return 1;
}

int32_t ocpw_node_set_control(OCPWContext *context, uint32_t node_id, uint32_t prop_id, int32_t kind, int64_t value) {
    struct control_query query = {NULL, 0, 0, prop_id, 0, 0, 0};
    struct control_write write = {prop_id, kind, value};
    pw_thread_loop_lock(context->loop);
    int answered = ocpw_with_node(context, node_id, &control_events, &control_proxy_events, &query, ask_write, &write);
    pw_thread_loop_unlock(context->loop);
    return answered != 0 ? answered : query.error;
}
