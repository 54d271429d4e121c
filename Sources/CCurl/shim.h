// libcurl, driven directly on Linux (Sources/FeedlineMastodon/HTTP/Transport/CurlLoop.swift).
//
// Foundation's URLSession on Linux runs on the same libcurl, but its glue leaves a write-readiness
// dispatch source on a socket after libcurl stops asking for one, so every transfer waiting for
// an answer (an open event stream, a slow request) spins a core. Feedline's own loop waits in
// curl_multi_poll instead. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift
// cannot call: these wrappers give each use a fixed type.
#ifndef FEEDLINE_CCURL_SHIM_H
#define FEEDLINE_CCURL_SHIM_H

#include <curl/curl.h>

static inline CURLcode feedline_curl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode feedline_curl_set_size(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode feedline_curl_set_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode feedline_curl_set_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode feedline_curl_set_list(CURL *easy, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(easy, option, list);
}

/// Sets the body callback and what it is handed.
static inline CURLcode feedline_curl_set_write(CURL *easy, curl_write_callback callback, void *data) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(easy, CURLOPT_WRITEDATA, data);
}

/// Sets the header-line callback and what it is handed.
static inline CURLcode feedline_curl_set_header(CURL *easy, curl_write_callback callback, void *data) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(easy, CURLOPT_HEADERDATA, data);
}

/// The pointer given as CURLOPT_PRIVATE.
static inline void *feedline_curl_private(CURL *easy) {
    char *value = NULL;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, &value);
    return value;
}

/// The errno of the last failed connect (0 when none).
static inline long feedline_curl_os_errno(CURL *easy) {
    long value = 0;
    curl_easy_getinfo(easy, CURLINFO_OS_ERRNO, &value);
    return value;
}

/// How a finished transfer ended (for a CURLMSG_DONE message).
static inline CURLcode feedline_curl_message_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
