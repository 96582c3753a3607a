// SPA video formats: reading a node's EnumFormat params and building the pods a stream
// connects with.
#include "Private.h"

#include <spa/param/video/format-utils.h>
#include <spa/pod/iter.h>
#include <string.h>

static const struct {
    int32_t ours;
    uint32_t spa;
} format_map[] = {
    {OCPW_FORMAT_NV12, SPA_VIDEO_FORMAT_NV12}, {OCPW_FORMAT_I420, SPA_VIDEO_FORMAT_I420}, {OCPW_FORMAT_YUY2, SPA_VIDEO_FORMAT_YUY2},
    {OCPW_FORMAT_UYVY, SPA_VIDEO_FORMAT_UYVY}, {OCPW_FORMAT_RGB, SPA_VIDEO_FORMAT_RGB},   {OCPW_FORMAT_BGR, SPA_VIDEO_FORMAT_BGR},
    {OCPW_FORMAT_BGRx, SPA_VIDEO_FORMAT_BGRx}, {OCPW_FORMAT_BGRA, SPA_VIDEO_FORMAT_BGRA},
};

uint32_t ocpw_spa_format(int32_t format) {
    for (size_t i = 0; i < SPA_N_ELEMENTS(format_map); i++)
        if (format_map[i].ours == format) return format_map[i].spa;
    return SPA_VIDEO_FORMAT_UNKNOWN;
}

int32_t ocpw_format_from_spa(uint32_t spa_format) {
    for (size_t i = 0; i < SPA_N_ELEMENTS(format_map); i++)
        if (format_map[i].spa == spa_format) return format_map[i].ours;
    return OCPW_FORMAT_UNKNOWN;
}

// Sizes a continuous size range is sampled at (as V4L2 stepwise sizes are).
static const struct spa_rectangle common_sizes[] = {
    {160, 120},  {320, 180},  {320, 240},   {352, 288},   {640, 360},   {640, 480},   {800, 600},
    {1024, 576}, {1280, 720}, {1280, 960},  {1920, 1080}, {2560, 1440}, {3840, 2160},
};

/// The values a property offers: a choice's alternatives (an enum's, after its default), its
/// default alone for a fixed value; `*choice` says which kind. Returns the count.
static uint32_t property_values(const struct spa_pod *param, uint32_t key, const void **values, uint32_t *value_size, uint32_t *choice) {
    const struct spa_pod_prop *prop = spa_pod_find_prop(param, NULL, key);
    if (prop == NULL) return 0;
    uint32_t count = 0;
    const struct spa_pod *first = spa_pod_get_values(&prop->value, &count, choice);
    if (first == NULL || count == 0) return 0;
    *values = SPA_POD_BODY_CONST(first);
    *value_size = first->size;
    if (*choice == SPA_CHOICE_Enum && count > 1) {
        *values = (const uint8_t *)*values + first->size;
        return count - 1;
    }
    return count;
}

static void add_mode(OCPWMode *modes, int32_t capacity, int32_t *count, const OCPWMode *mode) {
    for (int32_t i = 0; i < *count && i < capacity; i++)
        if (modes[i].format == mode->format && modes[i].width == mode->width && modes[i].height == mode->height) return;
    if (*count < capacity) modes[*count] = *mode;
    (*count)++;
}

void ocpw_modes_from_param(const struct spa_pod *param, OCPWMode *modes, int32_t capacity, int32_t *count) {
    uint32_t media_type = 0, media_subtype = 0;
    if (spa_format_parse(param, &media_type, &media_subtype) < 0 || media_type != SPA_MEDIA_TYPE_video) return;
    // The pixel formats.
    int32_t formats[16];
    int32_t format_count = 0;
    if (media_subtype == SPA_MEDIA_SUBTYPE_mjpg) {
        formats[format_count++] = OCPW_FORMAT_MJPEG;
    } else if (media_subtype == SPA_MEDIA_SUBTYPE_raw) {
        const void *values;
        uint32_t size, choice;
        uint32_t n = property_values(param, SPA_FORMAT_VIDEO_format, &values, &size, &choice);
        for (uint32_t i = 0; i < n && format_count < 16 && size == sizeof(uint32_t); i++) {
            int32_t ours = ocpw_format_from_spa(((const uint32_t *)values)[i]);
            if (ours != OCPW_FORMAT_UNKNOWN) formats[format_count++] = ours;
        }
    }
    if (format_count == 0) return;

    // The sizes: listed, or a range sampled.
    struct spa_rectangle sizes[32];
    int32_t size_count = 0;
    {
        const void *values;
        uint32_t size, choice;
        uint32_t n = property_values(param, SPA_FORMAT_VIDEO_size, &values, &size, &choice);
        if (n == 0 || size != sizeof(struct spa_rectangle)) return;
        const struct spa_rectangle *rects = values;
        if ((choice == SPA_CHOICE_Range || choice == SPA_CHOICE_Step) && n >= 3) {
            struct spa_rectangle low = rects[1], high = rects[2];
            struct spa_rectangle step = (choice == SPA_CHOICE_Step && n >= 4) ? rects[3] : (struct spa_rectangle){1, 1};
            if (step.width == 0) step.width = 1;
            if (step.height == 0) step.height = 1;
            for (size_t i = 0; i < SPA_N_ELEMENTS(common_sizes); i++) {
                struct spa_rectangle s = common_sizes[i];
                if (s.width >= low.width && s.width <= high.width && s.height >= low.height && s.height <= high.height &&
                    (s.width - low.width) % step.width == 0 && (s.height - low.height) % step.height == 0)
                    sizes[size_count++] = s;
            }
            if (size_count == 0) sizes[size_count++] = rects[0];
        } else {
            for (uint32_t i = 0; i < n && size_count < 32; i++) sizes[size_count++] = rects[i];
        }
    }

    // The rates: listed, or a range.
    OCPWMode rates = {0};
    {
        const void *values;
        uint32_t size, choice;
        uint32_t n = property_values(param, SPA_FORMAT_VIDEO_framerate, &values, &size, &choice);
        const struct spa_fraction *fractions = values;
        if (n > 0 && size == sizeof(struct spa_fraction)) {
            if (choice == SPA_CHOICE_Range && n >= 3) {
                rates.rate_is_range = 1;
                rates.rate_count = 2;
                struct spa_fraction low = fractions[1], high = fractions[2];
                // A range from 0/1 means "as slow as asked": one frame a second is the floor.
                if (low.num == 0) low = (struct spa_fraction){1, 1};
                rates.rate_num[0] = (int32_t)low.num, rates.rate_den[0] = (int32_t)low.denom;
                rates.rate_num[1] = (int32_t)high.num, rates.rate_den[1] = (int32_t)high.denom;
            } else {
                for (uint32_t i = 0; i < n && rates.rate_count < OCPW_MAX_RATES; i++) {
                    if (fractions[i].num == 0 || fractions[i].denom == 0) continue;
                    rates.rate_num[rates.rate_count] = (int32_t)fractions[i].num;
                    rates.rate_den[rates.rate_count] = (int32_t)fractions[i].denom;
                    rates.rate_count++;
                }
            }
        }
        if (rates.rate_count == 0) {
            // No rate listed (a still source): the stream says 30 frames a second.
            rates.rate_count = 1;
            rates.rate_num[0] = 30, rates.rate_den[0] = 1;
        }
    }

    for (int32_t f = 0; f < format_count; f++)
        for (int32_t s = 0; s < size_count; s++) {
            OCPWMode mode = rates;
            mode.format = formats[f];
            mode.width = (int32_t)sizes[s].width;
            mode.height = (int32_t)sizes[s].height;
            add_mode(modes, capacity, count, &mode);
        }
}

int ocpw_mode_from_format(const struct spa_pod *param, OCPWMode *mode) {
    uint32_t media_type = 0, media_subtype = 0;
    if (spa_format_parse(param, &media_type, &media_subtype) < 0 || media_type != SPA_MEDIA_TYPE_video) return 0;
    memset(mode, 0, sizeof *mode);
    struct spa_rectangle size;
    struct spa_fraction rate;
    if (media_subtype == SPA_MEDIA_SUBTYPE_raw) {
        struct spa_video_info_raw raw;
        if (spa_format_video_raw_parse(param, &raw) < 0) return 0;
        mode->format = ocpw_format_from_spa(raw.format);
        size = raw.size;
        rate = raw.framerate;
    } else if (media_subtype == SPA_MEDIA_SUBTYPE_mjpg) {
        struct spa_video_info_mjpg mjpg;
        if (spa_format_video_mjpg_parse(param, &mjpg) < 0) return 0;
        mode->format = OCPW_FORMAT_MJPEG;
        size = mjpg.size;
        rate = mjpg.framerate;
    } else {
        return 0;
    }
    if (mode->format == OCPW_FORMAT_UNKNOWN) return 0;
    mode->width = (int32_t)size.width;
    mode->height = (int32_t)size.height;
    mode->rate_count = 1;
    mode->rate_num[0] = (int32_t)rate.num;
    mode->rate_den[0] = (int32_t)rate.denom;
    return 1;
}

const struct spa_pod *ocpw_build_enum_format(struct spa_pod_builder *b, const int32_t *formats, int32_t count, int32_t width,
                                             int32_t height, int32_t rate_num, int32_t rate_den, int exact) {
    struct spa_pod_frame object;
    spa_pod_builder_push_object(b, &object, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
    int mjpeg = count > 0 && formats[0] == OCPW_FORMAT_MJPEG;
    spa_pod_builder_add(b, SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video), SPA_FORMAT_mediaSubtype,
                        SPA_POD_Id(mjpeg ? SPA_MEDIA_SUBTYPE_mjpg : SPA_MEDIA_SUBTYPE_raw), 0);
    if (!mjpeg) {
        struct spa_pod_frame choice;
        spa_pod_builder_prop(b, SPA_FORMAT_VIDEO_format, 0);
        if (count == 1) {
            spa_pod_builder_id(b, ocpw_spa_format(formats[0]));
        } else {
            spa_pod_builder_push_choice(b, &choice, SPA_CHOICE_Enum, 0);
            spa_pod_builder_id(b, ocpw_spa_format(formats[0]));  // the default
            for (int32_t i = 0; i < count; i++) spa_pod_builder_id(b, ocpw_spa_format(formats[i]));
            spa_pod_builder_pop(b, &choice);
        }
    }
    spa_pod_builder_add(b, SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&SPA_RECTANGLE((uint32_t)width, (uint32_t)height)), 0);
    if (rate_num > 0 && rate_den > 0) {
        if (exact) {
            spa_pod_builder_add(b, SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&SPA_FRACTION((uint32_t)rate_num, (uint32_t)rate_den)), 0);
        } else {
            spa_pod_builder_add(b, SPA_FORMAT_VIDEO_framerate,
                                SPA_POD_CHOICE_RANGE_Fraction(&SPA_FRACTION((uint32_t)rate_num, (uint32_t)rate_den), &SPA_FRACTION(0, 1),
                                                              &SPA_FRACTION(1000, 1)),
                                0);
        }
    } else {
        spa_pod_builder_add(b, SPA_FORMAT_VIDEO_framerate,
                            SPA_POD_CHOICE_RANGE_Fraction(&SPA_FRACTION(30, 1), &SPA_FRACTION(0, 1), &SPA_FRACTION(1000, 1)), 0);
    }
    return spa_pod_builder_pop(b, &object);
}
