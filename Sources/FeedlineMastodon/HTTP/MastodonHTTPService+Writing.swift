@_spi(FeedService) import Feedline
import Foundation

/// Posting, editing and deleting: `POST /api/v1/statuses`, `PUT /api/v1/statuses/:id`,
/// `DELETE /api/v1/statuses/:id`, and what a composer needs to know first.
extension MastodonHTTPService {
    /// `GET /api/v1/accounts/verify_credentials`, `GET /api/v1/preferences` and
    /// `GET /api/v2/instance` (its limits; Mastodon's defaults where it says nothing, and when
    /// the server has no v2 description). Preferences a server does not serve read as defaults.
    @_spi(FeedService) public func composeSettings() async throws -> ComposeSettings {
        let what = "the signed-in account"
        let response = try await send(APIRequest(method: "GET", url: server.url(path: "/api/v1/accounts/verify_credentials"), what: what))
        let account = Author(try decode(Mastodon.Account.self, from: response, what: what))
        var preferences = ComposePreferences()
        if let answer = try? await send(APIRequest(method: "GET", url: server.url(path: "/api/v1/preferences"), what: "your preferences")),
            let values = try? JSONSerialization.jsonObject(with: answer.data) as? [String: Any]
        {
            if let visibility = values["posting:default:visibility"] as? String { preferences.visibility = PostVisibility(serverName: visibility) }
            if let sensitive = values["posting:default:sensitive"] as? Bool { preferences.sensitive = sensitive }
            preferences.language = (values["posting:default:language"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        }
        var limits = ComposeLimits.mastodonDefaults
        if let answer = try? await send(APIRequest(method: "GET", url: server.url(path: "/api/v2/instance"), what: "the server's description")),
            let instance = try? decode(Mastodon.Instance.self, from: answer, what: "the server's description")
        {
            limits = instance.composeLimits
        }
        return ComposeSettings(account: account, preferences: preferences, limits: limits)
    }

    /// `POST /api/v1/statuses` with `Idempotency-Key: idempotencyKey` (with ``Feedline/Draft/editing``:
    /// `PUT /api/v1/statuses/:id`, which takes no key). The JSON body leaves out what the draft
    /// does not set rather than sending `null`. A 403 names `feedline login` (the sign-in may
    /// predate the permission to write); a 422 carries the server's sentence. A new post answered
    /// 404 `Record not found` is `PublishedPostDeleted`: Mastodon's answer to a key whose post it
    /// made and has deleted since (a reply or quote whose target is gone is a 404 with its own
    /// sentence, kept as it is).
    public func publish(_ draft: Draft, idempotencyKey: String) async throws -> Post {
        var draft = draft
        for index in draft.media.indices where draft.media[index].existingID == nil {
            draft.media[index].existingID = try await upload(draft.media[index])
        }
        let body = try Self.statusBody(draft)
        let request: APIRequest
        if let id = draft.editing {
            request = APIRequest(method: "PUT", url: statusURL(id), what: "the edit of post \(id)", json: body)
        } else {
            request = APIRequest(
                method: "POST", url: server.url(path: "/api/v1/statuses"), what: "the new post", json: body,
                headers: ["Idempotency-Key": idempotencyKey]
            )
        }
        let response: APIResponse
        do {
            response = try await writing { try await send(request) }
        } catch MastodonHTTPError.notFound(let message) where draft.editing == nil && message == Self.recordNotFound {
            throw PublishedPostDeleted()
        }
        return Post(try decode(Mastodon.Status.self, from: response, what: request.what))
    }

    /// Mastodon's `error` for a record it does not have.
    static let recordNotFound = "Record not found"

    /// `DELETE /api/v1/statuses/:id`: the post as it was (Mastodon answers with its source text).
    public func delete(_ id: PostID) async throws -> Post {
        let what = "the delete of post \(id)"
        let response = try await writing { try await send(APIRequest(method: "DELETE", url: statusURL(id), what: what)) }
        return Post(try decode(Mastodon.Status.self, from: response, what: what))
    }

    /// Runs a write; a 403 becomes ``MastodonHTTPError/writeRefused(serverMessage:server:)``.
    func writing(_ body: () async throws -> APIResponse) async throws -> APIResponse {
        do {
            return try await body()
        } catch MastodonHTTPError.forbidden(let message) {
            throw MastodonHTTPError.writeRefused(serverMessage: message, server: server.loginArgument)
        }
    }

    /// The JSON body of a post or an edit. A new post: `status`, `visibility`, and only the
    /// fields the draft sets (`quoted_status_id` for a quote, `quote_approval_policy` when it
    /// says who may quote it, `scheduled_at` in UTC for a scheduled one). An edit: every field the post keeps, since Mastodon's update
    /// takes an absent `spoiler_text`, `sensitive`, `media_ids` or `poll` as "remove it".
    package static func statusBody(_ draft: Draft) throws -> Data {
        var body: [String: Any] = ["status": draft.text]
        if let language = draft.language, !language.isEmpty { body["language"] = language }
        if draft.editing == nil {
            if let warning = draft.warning { body["spoiler_text"] = warning }
            if draft.sensitive { body["sensitive"] = true }
            body["visibility"] = draft.visibility.rawValue
            if let parent = draft.inReplyTo { body["in_reply_to_id"] = parent.rawValue }
            if let quoted = draft.quoting { body["quoted_status_id"] = quoted.rawValue }
            let media = draft.media.compactMap(\.existingID)
            if !media.isEmpty { body["media_ids"] = media }
            if draft.isScheduled, let at = draft.scheduledAt { body["scheduled_at"] = Mastodon.DateFormat.timestamp(at) }
        } else {
            body["spoiler_text"] = draft.warning ?? ""
            body["sensitive"] = draft.sensitive
            body["media_ids"] = draft.media.compactMap(\.existingID)
        }
        // Who may quote it: new posts and edits alike (an edit may change it, not the quote).
        if let policy = draft.quotePolicy { body["quote_approval_policy"] = policy.rawValue }
        if let poll = draft.poll {
            body["poll"] = ["options": poll.options, "expires_in": poll.expiresIn, "multiple": poll.multiple] as [String: Any]
        }
        return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
    }
}

/// Editing's reads and votes: `GET /api/v1/statuses/:id/source`, `GET /api/v1/statuses/:id/history`,
/// `POST /api/v1/polls/:id/votes`.
extension MastodonHTTPService {
    /// `GET /api/v1/statuses/:id/source`: the text and warning as typed.
    @_spi(FeedService) public func source(of id: PostID) async throws -> PostSource {
        let what = "the source of post \(id)"
        let response = try await send(APIRequest(method: "GET", url: statusURL(id, "source"), what: what))
        let source = try decode(Mastodon.StatusSource.self, from: response, what: what)
        return PostSource(text: source.text, contentWarning: source.spoilerText)
    }

    /// `GET /api/v1/statuses/:id/history`: every version, oldest first.
    @_spi(FeedService) public func history(of id: PostID) async throws -> [PostVersion] {
        let what = "the edit history of post \(id)"
        let response = try await send(APIRequest(method: "GET", url: statusURL(id, "history"), what: what))
        return try decode([Mastodon.StatusEdit].self, from: response, what: what).map(PostVersion.init)
    }

    /// `POST /api/v1/polls/:id/votes` with `choices[]`: the poll afterwards.
    public func vote(poll pollID: String, of postID: PostID, choices: [Int]) async throws -> Poll {
        let what = "the vote in the poll of post \(postID)"
        var form = URLComponents()
        form.queryItems = choices.map { URLQueryItem(name: "choices[]", value: String($0)) }
        let request = APIRequest(
            method: "POST", url: server.url(path: "/api/v1/polls/" + URLPath.encode(pollID) + "/votes"), what: what,
            form: Data((form.percentEncodedQuery ?? "").utf8)
        )
        let response = try await writing { try await send(request) }
        return Poll(try decode(Mastodon.Poll.self, from: response, what: what))
    }
}

/// Attachments: `POST /api/v2/media`, then `GET /api/v1/media/:id` until the server has processed it.
extension MastodonHTTPService {
    /// How often a processing attachment is asked about, and for how long at most.
    static let mediaPoll: (every: Duration, atMost: Int) = (.seconds(1), 120)

    /// Uploads `media`'s file with its description and returns the attachment's id once the
    /// server has processed it (a 202 or a `url` of `null` means it is still processing: asked
    /// again every second on the injected clock; posting before then is a 422). One sentence
    /// when the file cannot be read or the server gives up.
    func upload(_ media: Draft.MediaDraft) async throws -> String {
        let url = URL(fileURLWithPath: media.file)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MastodonHTTPError.unprocessable(serverMessage: "cannot read the file \(media.file) to attach: \(error.localizedDescription)")
        }
        var form = MultipartForm()
        if !media.description.isEmpty { form.field("description", media.description) }
        let name = url.lastPathComponent.replacingOccurrences(of: "\"", with: "")
        form.file("file", filename: name, contentType: Self.mimeType(of: name), data)
        let what = "the upload of \(name)"
        let response = try await writing {
            try await send(APIRequest(method: "POST", url: server.url(path: "/api/v2/media"), what: what, body: form.body))
        }
        var attachment = try decode(Mastodon.MediaAttachment.self, from: response, what: what)
        var asked = 0
        var processing = response.status == 202 || attachment.url == nil
        while processing {
            guard asked < Self.mediaPoll.atMost else {
                throw MastodonHTTPError.unprocessable(serverMessage: "the server was still processing \(name) after \(asked) seconds")
            }
            try await clock.sleep(for: Self.mediaPoll.every)
            asked += 1
            let check = try await send(APIRequest(method: "GET", url: server.url(path: "/api/v1/media/" + URLPath.encode(attachment.id)), what: what))
            attachment = try decode(Mastodon.MediaAttachment.self, from: check, what: what)
            processing = check.status == 206 || attachment.url == nil
        }
        return attachment.id
    }

    /// A MIME type from a file name's extension (what Mastodon checks the content against).
    static func mimeType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "heic": "image/heic"
        case "mp4", "m4v": "video/mp4"
        case "mov": "video/quicktime"
        case "webm": "video/webm"
        case "mp3": "audio/mpeg"
        case "ogg", "oga": "audio/ogg"
        case "wav": "audio/wave"
        case "m4a": "audio/mp4"
        case "flac": "audio/flac"
        default: "application/octet-stream"
        }
    }
}
