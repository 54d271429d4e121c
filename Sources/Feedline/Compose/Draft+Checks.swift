import Foundation

/// Why a draft cannot be sent yet, each with a sentence for the user.
public enum DraftProblem: Hashable, Sendable, CustomStringConvertible {
    /// No text, no media and no poll.
    case empty
    /// Longer than the server allows, by this many characters.
    case tooLong(by: Int)
    /// Media and a poll together (Mastodon refuses the pair).
    case pollWithMedia
    /// More media than the server takes.
    case tooManyMedia(limit: Int)
    /// A poll with fewer than two choices.
    case tooFewOptions
    /// A poll with more choices than the server takes.
    case tooManyOptions(limit: Int)
    /// A poll choice longer than the server takes (the first such, 1-based).
    case optionTooLong(number: Int, limit: Int)
    /// Two poll choices alike.
    case duplicateOption(String)
    /// A poll open for less or more time than the server takes, in seconds.
    case pollDuration(min: Int, max: Int)
    /// A direct message that mentions nobody reaches nobody.
    case directWithoutMention
    /// Another edit of the same post is on its way (one edit in flight per post).
    case editInFlight
    /// A quote with media or a poll (Mastodon refuses them together).
    case quoteWithAttachments
    /// A scheduled post whose time is not more than five minutes ahead (Mastodon refuses it).
    case scheduledTooSoon

    public var description: String {
        switch self {
        case .empty: "The post is empty: write something, or attach media or a poll."
        case .tooLong(let by): "The post is \(by) character\(by == 1 ? "" : "s") too long."
        case .pollWithMedia: "A post cannot have both media and a poll."
        case .tooManyMedia(let limit): "At most \(limit) attachments fit in one post."
        case .tooFewOptions: "A poll needs at least two choices."
        case .tooManyOptions(let limit): "A poll takes at most \(limit) choices."
        case .optionTooLong(let number, let limit): "Poll choice \(number) is longer than \(limit) characters."
        case .duplicateOption(let option): "Poll choice \"\(option)\" is there twice."
        case .pollDuration(let min, let max): "A poll stays open between \(Self.span(min)) and \(Self.span(max))."
        case .directWithoutMention: "A direct message needs at least one @mention to reach anyone."
        case .editInFlight: "An edit of this post is on its way; wait for it (drafts shows it) before sending another."
        case .quoteWithAttachments: "A quote post cannot carry media or a poll."
        case .scheduledTooSoon: "A scheduled post must go more than 5 minutes from now (Mastodon refuses sooner): pick a later time, or post it now."
        }
    }

    private static func span(_ seconds: Int) -> String {
        if seconds % 86_400 == 0 { return "\(seconds / 86_400) day\(seconds == 86_400 ? "" : "s")" }
        if seconds % 3_600 == 0 { return "\(seconds / 3_600) hour\(seconds == 3_600 ? "" : "s")" }
        return "\(seconds / 60) minutes"
    }
}

extension Draft {
    /// The length as the server counts it (see `PostLength`).
    public func length(limits: ComposeLimits) -> Int {
        PostLength.count(text: text, contentWarning: warning, limits: limits)
    }

    /// How many characters are left under the server's limit; negative when over it.
    public func charactersLeft(limits: ComposeLimits) -> Int {
        limits.maxCharacters - length(limits: limits)
    }

    /// Everything that stops the draft from being sent under `limits`, in a fixed order
    /// (emptiness, length, media, poll, audience); empty when it can be sent. An edit is checked
    /// as a new post is (the server checks it the same way).
    ///
    /// - Complexity: O(n) in the text's length.
    public func problems(limits: ComposeLimits) -> [DraftProblem] {
        var problems: [DraftProblem] = []
        let hasText = !text.allSatisfy(\.isWhitespace)
        if !hasText, media.isEmpty, poll == nil { problems.append(.empty) }
        let left = charactersLeft(limits: limits)
        if left < 0 { problems.append(.tooLong(by: -left)) }
        if poll != nil, !media.isEmpty { problems.append(.pollWithMedia) }
        if media.count > limits.maxMediaAttachments { problems.append(.tooManyMedia(limit: limits.maxMediaAttachments)) }
        if let poll {
            if poll.options.count < 2 { problems.append(.tooFewOptions) }
            if poll.options.count > limits.maxPollOptions { problems.append(.tooManyOptions(limit: limits.maxPollOptions)) }
            if let index = poll.options.firstIndex(where: { $0.count > limits.maxCharactersPerPollOption }) {
                problems.append(.optionTooLong(number: index + 1, limit: limits.maxCharactersPerPollOption))
            }
            var seen = Set<String>()
            if let twice = poll.options.first(where: { !seen.insert($0.lowercased()).inserted }) { problems.append(.duplicateOption(twice)) }
            if !(limits.minPollExpiration...max(limits.minPollExpiration, limits.maxPollExpiration)).contains(poll.expiresIn) {
                problems.append(.pollDuration(min: limits.minPollExpiration, max: limits.maxPollExpiration))
            }
        }
        if visibility == .direct, editing == nil, !text.contains("@") { problems.append(.directWithoutMention) }
        if quoting != nil, editing == nil, poll != nil || !media.isEmpty { problems.append(.quoteWithAttachments) }
        return problems
    }

    /// A reply to `post` (a boost row replies to its original) by `account`, as Mastodon's own
    /// clients start one:
    /// - it mentions the original's author, then everyone the original mentions, each once and
    ///   never `account` itself (a reply to oneself mentions the others only);
    /// - its visibility is the stricter of the account's default and the original's;
    /// - it carries the original's content warning, and the account's default language and
    ///   sensitivity.
    package static func reply(
        to post: Post, by account: Author?, preferences: ComposePreferences, id: DraftID, createdAt: Date
    ) -> Draft {
        let original = post.content
        var handles: [String] = []
        var seen = Set<String>()
        let me = account.map { Self.normalized($0.handle) }
        for handle in [original.author.handle] + original.mentions {
            let key = Self.normalized(handle)
            guard key != me, !handle.isEmpty, seen.insert(key).inserted else { continue }
            handles.append(handle)
        }
        let text = handles.isEmpty ? "" : handles.map { "@" + $0 }.joined(separator: " ") + " "
        return Draft(
            id: id, text: text, contentWarning: original.contentWarning, sensitive: preferences.sensitive,
            visibility: max(preferences.visibility, original.visibility), language: preferences.language,
            inReplyTo: original.id, createdAt: createdAt
        )
    }

    /// A draft editing `post` (one's own original): its text and warning as the server's source
    /// gives them (`source`), its attachments (kept by id) and poll (open for the time it has
    /// left), and its visibility, language and reply target, which an edit cannot change.
    /// `createdAt` is now.
    @_spi(FeedService) public static func edit(of post: Post, source: PostSource, id: DraftID, createdAt: Date) -> Draft {
        let original = post.content
        var draft = Draft(
            id: id, text: source.text, contentWarning: source.contentWarning, sensitive: original.contentWarning != nil,
            visibility: original.visibility, language: original.language,
            poll: original.poll.map { poll in
                let left = poll.expiresAt.map { Int($0.timeIntervalSince(createdAt).rounded(.up)) } ?? 86_400
                return PollDraft(options: poll.options.map(\.title), expiresIn: max(300, left), multiple: poll.multiple)
            },
            media: original.media.compactMap { media in
                media.id.map { MediaDraft(file: "", description: media.description ?? "", existingID: $0) }
            },
            inReplyTo: original.inReplyToID, editing: original.id, createdAt: createdAt
        )
        draft.quoting = original.quote?.postID
        return draft
    }

    /// A new draft made of one's own deleted `post` (a redraft): its text and warning as typed
    /// (`source`), its attachments (kept by id, as Mastodon keeps them for a redraft), its poll's
    /// choices, and its reply target, visibility and language.
    @_spi(FeedService) public static func redraft(of post: Post, source: PostSource, id: DraftID, createdAt: Date) -> Draft {
        var draft = edit(of: post, source: source, id: id, createdAt: createdAt)
        draft.editing = nil
        if let poll = post.content.poll { draft.poll = PollDraft(options: poll.options.map(\.title), multiple: poll.multiple) }
        return draft
    }

    /// A handle compared without a leading `@` and case.
    private static func normalized(_ handle: String) -> String {
        String(handle.drop { $0 == "@" }).lowercased()
    }
}
