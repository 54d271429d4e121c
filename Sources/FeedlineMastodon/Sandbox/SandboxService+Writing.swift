import Feedline
import Foundation

/// Posting, editing and deleting on the sandbox, as Mastodon's `POST /api/v1/statuses`,
/// `PUT /api/v1/statuses/:id` and `DELETE /api/v1/statuses/:id` do.
extension SandboxService {
    /// How long an idempotency key is remembered, in the sandbox's wall-clock time (Mastodon: an hour).
    public static let idempotencyLifetime: TimeInterval = 3_600

    /// The scenario's signed-in account, Mastodon's defaults for its preferences and limits.
    public func composeSettings() async throws -> ComposeSettings {
        let account = withState { $0.scenario.account }
        return ComposeSettings(account: Author(account), preferences: ComposePreferences(), limits: .mastodonDefaults)
    }

    /// A new post by the signed-in account (with ``Draft/editing``: a new version of that post).
    ///
    /// - A key seen within ``idempotencyLifetime`` returns the post made for it, unchanged.
    /// - A new post gets a snowflake-like id of now, goes on top of home (a direct message does
    ///   not), into the account's feed and under its parent in threads; the parent's reply count
    ///   goes up. `@user` and `@user@host` that name known accounts become mentions.
    /// - Scheduled faults apply to ``SandboxScenario/Request/publish``; ``SandboxScenario/Failure/lostAnswer``
    ///   makes the post and then fails as a timeout.
    ///
    /// - Throws: ``SandboxError/notFound(_:)`` for a reply or edit target the sandbox does not
    ///   hold; ``SandboxError/fault(_:request:)`` for a scheduled fault; a refusal for an empty post.
    public func publish(_ draft: Draft, idempotencyKey: String) async throws -> Post {
        let now = wallClock.now()
        return try await perform(.publish, postID: draft.editing) { state, failure, _ throws(SandboxError) in
            if draft.editing == nil, let known = state.idempotencyKeys[idempotencyKey], now.timeIntervalSince(known.at) < Self.idempotencyLifetime,
                let post = state.store.post(known.id)
            {
                return post
            }
            if failure == .validationFailed { throw .fault(.validationFailed, request: .publish) }
            guard !draft.text.allSatisfy(\.isWhitespace) || draft.poll != nil || !draft.media.isEmpty else {
                throw .fault(.validationFailed, request: .publish)
            }
            let post: Post
            if let id = draft.editing {
                guard state.store.edit(id.rawValue, text: draft.text, contentWarning: draft.warning, at: now), let edited = state.store.post(id.rawValue) else {
                    throw .notFound(id)
                }
                post = edited
            } else {
                let id = try state.store.addPost(draft, by: state.scenario.account, at: now)
                state.idempotencyKeys[idempotencyKey] = (id, now)
                guard let made = state.store.post(id) else { throw .notFound(PostID(id)) }
                post = made
            }
            if failure == .lostAnswer { throw .fault(.lostAnswer, request: .publish) }
            return post
        }
    }

    /// Deletes the signed-in account's post `id` (its boosts go with it) and returns it as it was.
    ///
    /// - Throws: ``SandboxError/notFound(_:)`` for a post the sandbox does not hold,
    ///   ``SandboxError/fault(_:request:)`` with ``SandboxScenario/Failure/forbidden`` for
    ///   someone else's post, or a scheduled fault.
    public func delete(_ id: PostID) async throws -> Post {
        try await perform(.delete, postID: id) { state, failure, _ throws(SandboxError) in
            let originalID = try state.store.originalID(of: id.rawValue)
            guard let status = state.store.rendered(originalID), let post = state.store.post(originalID) else { throw .notFound(id) }
            guard status.account.id == state.scenario.account.id else { throw .fault(.forbidden, request: .delete) }
            _ = state.store.delete(originalID)
            if failure == .lostAnswer { throw .fault(.lostAnswer, request: .delete) }
            return post
        }
    }
}
