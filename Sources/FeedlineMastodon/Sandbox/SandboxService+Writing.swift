@_spi(FeedService) import Feedline
import Foundation

/// Posting, editing and deleting on the sandbox, as Mastodon's `POST /api/v1/statuses`,
/// `PUT /api/v1/statuses/:id` and `DELETE /api/v1/statuses/:id` do.
extension SandboxService {
    /// How long an idempotency key is remembered, in the sandbox's wall-clock time (Mastodon: an hour).
    public static let idempotencyLifetime: TimeInterval = 3_600

    /// The scenario's signed-in account, Mastodon's defaults for its preferences and limits.
    @_spi(FeedService) public func composeSettings() async throws -> ComposeSettings {
        let account = withState { $0.scenario.account }
        return ComposeSettings(account: Author(account), preferences: ComposePreferences(), limits: .mastodonDefaults)
    }

    /// A new post by the signed-in account (with ``Draft/editing``: a new version of that post).
    ///
    /// - A key seen within ``idempotencyLifetime`` returns the post made for it, unchanged — or,
    ///   when that post has been deleted since, throws `PublishedPostDeleted` (Mastodon's 404);
    ///   once the key has expired it makes the post again.
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
        // New attachments: read, then processed for a while (on the sandbox's clock), as a server does.
        var uploads: [Mastodon.MediaAttachment] = []
        for media in draft.media where media.existingID == nil {
            let url = URL(fileURLWithPath: media.file)
            guard FileManager.default.isReadableFile(atPath: url.path), (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else {
                throw SandboxError.refused("Cannot read the file \(media.file) to attach.")
            }
            try await sleep(for: Self.mediaProcessing)
            let name = url.lastPathComponent
            uploads.append(Mastodon.MediaAttachment(
                id: "", type: Self.kind(of: name), url: "https://sandbox.example/media/\(name)",
                description: media.description.isEmpty ? nil : media.description
            ))
        }
        let attachments = uploads
        let published = try await perform(.publish, postID: draft.editing) { state, failure, _ throws(SandboxError) -> Post? in
            if draft.editing == nil, let known = state.idempotencyKeys[idempotencyKey], now.timeIntervalSince(known.at) < Self.idempotencyLifetime {
                // Mastodon looks the key's post up: one deleted since is "Record not found" until the key expires.
                return state.store.post(known.id)
            }
            if failure == .validationFailed { throw .fault(.validationFailed, request: .publish) }
            guard !draft.text.allSatisfy(\.isWhitespace) || draft.poll != nil || !draft.media.isEmpty else {
                throw .fault(.validationFailed, request: .publish)
            }
            if draft.editing == nil, let quoted = draft.quoting {
                // The quoted post's policy, as Mastodon applies it (the author may always quote).
                guard let status = state.store.rendered(quoted.rawValue), let original = state.store.post(status.reblog?.id ?? status.id) else {
                    throw .notFound(quoted)
                }
                if let refusal = original.quoteRefusal(by: Author(state.scenario.account)) { throw .refused(refusal) }
            }
            let post: Post
            if let id = draft.editing {
                guard let status = state.store.rendered(id.rawValue) else { throw .notFound(id) }
                guard status.account.id == state.scenario.account.id else { throw .fault(.forbidden, request: .publish) }
                guard state.store.edit(id.rawValue, text: draft.text, contentWarning: draft.warning, at: now), let edited = state.store.post(id.rawValue) else {
                    throw .notFound(id)
                }
                post = edited
            } else {
                let id = try state.store.addPost(draft, by: state.scenario.account, at: now, uploads: attachments)
                state.idempotencyKeys[idempotencyKey] = (id, now)
                // A direct reply in a conversation is its new last status.
                if draft.visibility == .direct, let parent = draft.inReplyTo { _ = state.conversations.replied(id, to: parent.rawValue) }
                guard let made = state.store.post(id) else { throw .notFound(PostID(id)) }
                post = made
            }
            if failure == .lostAnswer { throw .fault(.lostAnswer, request: .publish) }
            return post
        }
        guard let published else { throw PublishedPostDeleted() }
        return published
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

    /// How long the sandbox takes to process an attachment (on its clock: virtual in scripts).
    public static let mediaProcessing: Duration = .milliseconds(800)

    static func kind(of name: String) -> Mastodon.MediaAttachment.Kind {
        switch (name as NSString).pathExtension.lowercased() {
        case "png", "jpg", "jpeg", "webp", "heic": .image
        case "gif": .gifv
        case "mp4", "m4v", "mov", "webm": .video
        case "mp3", "ogg", "oga", "wav", "m4a", "flac": .audio
        default: .unknown
        }
    }

    /// The text and warning of post `id` as typed (see ``SandboxStore``): kept for posts made or
    /// edited here, the HTML as plain text for the fixtures'.
    @_spi(FeedService) public func source(of id: PostID) async throws -> PostSource {
        try await perform(.post, postID: id) { state, _, _ throws(SandboxError) in
            guard let source = state.store.source(of: id.rawValue) else { throw .notFound(id) }
            return PostSource(text: source.text, contentWarning: source.spoilerText)
        }
    }

    /// Every version of post `id`, oldest first.
    @_spi(FeedService) public func history(of id: PostID) async throws -> [PostVersion] {
        try await perform(.post, postID: id) { state, _, _ throws(SandboxError) in
            guard let versions = state.store.history(of: id.rawValue) else { throw .notFound(id) }
            return versions.map(PostVersion.init)
        }
    }

    /// Votes in the poll of post `postID`, as Mastodon does: refused (422) when the poll has
    /// ended (by the sandbox's clock) or the user voted already, or for a choice it does not
    /// have; else the counts go up and the poll says who voted for what.
    public func vote(poll pollID: String, of postID: PostID, choices: [Int]) async throws -> Poll {
        let now = wallClock.now()
        return try await perform(.vote, postID: postID) { state, failure, _ throws(SandboxError) in
            if failure == .validationFailed { throw .fault(.validationFailed, request: .vote) }
            var original = try state.store.original(of: postID.rawValue)
            guard var poll = original.poll, poll.id == pollID else { throw .notFound(postID) }
            if poll.expired || (poll.expiresAt.map { $0 <= now } ?? false) { throw .refused("Validation failed: The poll has already ended") }
            if poll.voted == true { throw .refused("Validation failed: You have already voted on this poll") }
            let picked = Set(choices)
            guard !picked.isEmpty, picked.allSatisfy({ poll.options.indices.contains($0) }), poll.multiple || picked.count == 1 else {
                throw .refused("Validation failed: That is not a valid choice")
            }
            for index in picked { poll.options[index].votesCount = (poll.options[index].votesCount ?? 0) + 1 }
            poll.votesCount += picked.count
            poll.votersCount = (poll.votersCount ?? poll.votesCount - picked.count) + 1
            poll.voted = true
            poll.ownVotes = picked.sorted()
            original.poll = poll
            state.store.replace(original)
            if failure == .lostAnswer { throw .fault(.lostAnswer, request: .vote) }
            return Poll(poll)
        }
    }
}
