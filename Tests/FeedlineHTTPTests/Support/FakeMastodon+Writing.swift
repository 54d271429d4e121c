@_spi(FeedService) import Feedline
@testable import FeedlineMastodon
import FeedlineTestSupport
import FlyingFox
import Foundation

/// Posting, editing and deleting, with Mastodon's rules, kept by the model (its writing slice,
/// ``ServerModel/writing``, and the statuses themselves):
///
/// - `POST /api/v1/statuses` (JSON: `status`, `spoiler_text`, `visibility`, `in_reply_to_id`)
///   makes a status by the signed-in user (``user``) on top of home, newer than every status
///   the server knows. `Idempotency-Key` is remembered for an hour of the model's clock
///   (``ServerModel/now``): a resend answers the key's status, or 404 `Record not found` once
///   that status is deleted; after the hour the key makes a status again. A blank post is 422;
///   a reply to a status the server does not have is 404 with ``replyTargetGone``.
/// - `PUT /api/v1/statuses/:id`: a new version of the user's own status (403 for someone
///   else's, 404 for one gone), dated now; the version before goes into its history.
/// - `DELETE /api/v1/statuses/:id`: the user's own status is gone from every timeline, with
///   its boosts; answers it as it was (403 for someone else's, 404 for one gone).
/// - `GET /api/v1/statuses/:id/history` and `/source`: the versions oldest first (one for a
///   status never edited), and the text as typed.
///
/// All need a user (401).
extension FakeMastodon {
    /// The signed-in user as the writing endpoints know them: the author of what they post.
    static let user = Mastodon.Account(id: "108000000000000001", username: "you", acct: "you", displayName: "You")

    /// Mastodon's `error` for a reply to a status it does not have (`statuses.errors.in_reply_not_found`).
    static let replyTargetGone = "The post you are trying to reply to does not appear to exist."

    /// The answer for a request of these endpoints, `nil` for any other. Called with requests
    /// whose token the server accepted: here a request is signed in when it carries one.
    func writingRoute(_ request: Recorded) -> HTTPResponse? {
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.count >= 3, parts[0...2] == ["api", "v1", "statuses"] else { return nil }
        let rest = Array(parts.dropFirst(3))
        let route: (Recorded) -> HTTPResponse
        switch (request.method, rest.count) {
        case ("POST", 0): route = create
        case ("PUT", 1): route = { self.edit(rest[0], $0) }
        case ("DELETE", 1): route = { _ in self.deleteStatus(rest[0]) }
        case ("GET", 2) where rest[1] == "history": route = { _ in self.history(rest[0]) }
        case ("GET", 2) where rest[1] == "source": route = { _ in self.source(rest[0]) }
        default: return nil
        }
        guard request.authorization != nil else { return Self.error(401, "This API requires an authenticated user") }
        return route(request)
    }

    private func create(_ request: Recorded) -> HTTPResponse {
        let body = request.json
        if let at = body["scheduled_at"] as? String { return createScheduled(request, at: at) }
        let text = body["status"] as? String ?? ""
        guard !text.allSatisfy(\.isWhitespace) else { return Self.error(422, "Validation failed: Text can't be blank") }
        let key = request.idempotencyKey
        let parent = body["in_reply_to_id"] as? String
        return state.withLock { state in
            if let parent, state.server.entry(parent) == nil { return Self.error(404, Self.replyTargetGone) }
            if let key {
                switch state.server.writing.answer(to: key, at: state.server.now, exists: { state.server.entry($0) != nil }) {
                case .made(let id): if let status = state.server.entry(id) { return Self.json(status) }
                case .deleted: return Self.error(404, "Record not found")
                case .new: break
                }
            }
            // Newer than every status the server has or had: Mastodon never gives an id twice.
            let newest = max(state.known.compactMap { UInt64($0.id) }.max() ?? 0, state.lastStatusID)
            state.lastStatusID = newest + 1
            let id = String(newest + 1)
            state.server.writing.made += 1
            let status = Mastodon.Status(
                id: id, uri: baseURL + "/users/you/statuses/" + id, url: baseURL + "/@you/" + id, createdAt: state.server.now, account: Self.user,
                content: Self.html(text), spoilerText: body["spoiler_text"] as? String ?? "",
                visibility: (body["visibility"] as? String).map(Mastodon.Visibility.init(rawValue:)) ?? .public,
                inReplyToID: parent, favouritesCount: 0, favourited: false, reblogged: false, bookmarked: false
            )
            state.add([status])
            if let key { state.server.writing.remember(key, made: id, at: state.server.now) }
            return Self.json(status)
        }
    }

    private func edit(_ id: String, _ request: Recorded) -> HTTPResponse {
        let body = request.json
        return state.withLock { state in
            guard let before = state.server.original(of: id) else { return Self.error(404, "Record not found") }
            guard before.account.id == Self.user.id else { return Self.error(403, "This action is not allowed") }
            let text = body["status"] as? String ?? ""
            let now = state.server.now
            var versions = state.server.writing.versions[before.id] ?? [Self.version(of: before, at: before.createdAt)]
            guard
                let edited = state.server.update(before.id, { status in
                    status.content = Self.html(text)
                    status.spoilerText = body["spoiler_text"] as? String ?? ""
                    status.editedAt = now
                })
            else { return Self.error(404, "Record not found") }
            versions.append(Self.version(of: edited, at: now))
            state.server.writing.versions[before.id] = versions
            state.server.writing.sources[before.id] = PostSource(text: text, contentWarning: body["spoiler_text"] as? String)
            return Self.json(edited)
        }
    }

    private func deleteStatus(_ id: String) -> HTTPResponse {
        state.withLock { state in
            guard let status = state.server.original(of: id) else { return Self.error(404, "Record not found") }
            guard status.account.id == Self.user.id else { return Self.error(403, "This action is not allowed") }
            state.server.remove(status.id)
            state.server.writing.versions[status.id] = nil
            state.server.writing.sources[status.id] = nil
            // Every timeline is made of what the model still has.
            state.timeline.removeAll { state.server.entry($0.id) == nil }
            state.known.removeAll { state.server.entry($0.id) == nil }
            return Self.json(status)
        }
    }

    private func history(_ id: String) -> HTTPResponse {
        state.withLock { state in
            guard let status = state.server.original(of: id) else { return Self.error(404, "Record not found") }
            let versions = state.server.writing.versions[status.id] ?? [Self.version(of: status, at: status.createdAt)]
            return Self.json(versions.map { Mastodon.StatusEdit(content: Self.html($0.text), spoilerText: $0.contentWarning ?? "", createdAt: $0.createdAt) })
        }
    }

    private func source(_ id: String) -> HTTPResponse {
        state.withLock { state in
            guard let status = state.server.original(of: id) else { return Self.error(404, "Record not found") }
            let source = state.server.writing.sources[status.id]
            return Self.json(
                Mastodon.StatusSource(id: status.id, text: source?.text ?? Post(status).text, spoilerText: source?.contentWarning ?? status.spoilerText)
            )
        }
    }

    /// `status` as a version of its history.
    private static func version(of status: Mastodon.Status, at date: Date) -> PostVersion {
        let post = Post(status)
        return PostVersion(text: post.text, contentWarning: post.contentWarning, createdAt: date)
    }

    /// `text` as Mastodon renders a plain post: one paragraph, escaped.
    static func html(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        return "<p>\(escaped)</p>"
    }
}
