/* view_login: the sign-in page (/login, SPEC §17; see view.h). */
#include "web/view.h"

void view_login(struct page *p, const struct view_login *d)
{
    page_puts(p, "<h1>Sign in</h1>\n");
    if (p->user != NULL) {
        page_puts(p, "<p class=\"lead\" id=\"signed-in\">Signed in as <strong>");
        page_text(p, p->user);
        page_puts(p, "</strong>: the forms that write (uploads, saving a model, triage, "
                     "watches, deletes) use this token.</p>\n"
                     "<form method=\"post\" action=\"/logout\"><input type=\"hidden\" "
                     "name=\"csrf\" value=\"");
        page_attr(p, p->csrf ? p->csrf : "");
        page_puts(p, "\"><button type=\"submit\" id=\"logout-button\">Sign out</button>"
                     "</form>\n");
        return;
    }
    page_puts(p,
              "<p class=\"lead\">Sign in with a write token (from <code>prophecyd token "
              "create NAME</code>) once: the forms that write then ask for it no more "
              "until you sign out. The JSON API keeps taking the token as "
              "<code>Authorization: Bearer</code>.</p>\n");
    page_puts(p, "<form method=\"post\" action=\"/login\" id=\"login-form\">"
                 "<input type=\"hidden\" name=\"csrf\" value=\"");
    page_attr(p, p->csrf ? p->csrf : "");
    page_puts(p, "\">");
    if (d->next != NULL) {
        page_puts(p, "<input type=\"hidden\" name=\"next\" value=\"");
        page_attr(p, d->next);
        page_puts(p, "\">");
    }
    page_puts(p, "<div class=\"fields\"><div class=\"field\"><label for=\"login-token\">"
                 "Write token</label><input type=\"password\" id=\"login-token\" "
                 "name=\"token\" autocomplete=\"off\" required placeholder=\"pt_…\"");
    if (d->error != NULL) {
        page_puts(p, " aria-invalid=\"true\" aria-describedby=\"login-token-error\">"
                     "<p class=\"field-error\" id=\"login-token-error\">");
        page_text(p, d->error->message);
        page_puts(p, "</p>");
    } else {
        page_puts(p, ">");
    }
    page_puts(p,
              "</div></div>\n<button type=\"submit\" id=\"login-button\">Sign in</button>"
              "</form>\n");
}
