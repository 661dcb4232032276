/* methods: the table of modeling methods; see methods.h. */
#include "web/methods.h"

#include <string.h>

#include "core/method_couple.h"
#include "core/method_fit.h"
#include "core/method_param.h"
#include "web/chart.h"

static const struct method methods[] = {
    {"fit", fit_answer, fit_predict_saved, fit_plot},
    {"parameterize", param_answer, param_predict_saved, param_plot},
    {"couple", couple_answer, couple_predict_saved, couple_plot},
};

const struct method *method_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof methods / sizeof methods[0]; i++)
        if (strcmp(methods[i].name, name) == 0)
            return &methods[i];
    return NULL;
}
