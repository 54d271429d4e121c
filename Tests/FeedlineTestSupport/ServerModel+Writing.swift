@_spi(FeedService) import Feedline
import Foundation

/// The writing laws of a server of posts, as Mastodon's and the sandbox's:
/// - A published post is on top of home and of the author's profile, and asking again with the
///   same key publishes nothing new (it answers the same post; a post deleted since is refused
///   as `PublishedPostDeleted` while the key lasts, an hour by the model's clock, ``now``).
/// - An edit changes the text and warning everywhere the post shows, dates it, and keeps the
///   version before in the history (the first version is the post as published).
/// - A deleted post is gone: from every timeline, as every boost of it, and a later read of it
///   is "Record not found". Only your own posts can be edited or deleted.
extension ServerModel where Entry == Post {
    /// Publishes `draft` by `author` at `now` (or edits the post `draft.editing` names) and
    /// returns the post as the server answers it.
    ///
    /// - Throws: ``RecordNotFound`` for an edit of a post gone; `PublishedPostDeleted` for a key
    ///   whose post was deleted within the hour; ``ServerRefusal`` for an empty post or an edit of
    ///   someone else's post; nothing changes then.
    package mutating func publish(_ draft: Draft, idempotencyKey: String, by author: Author, at now: Date) throws -> Post {
        guard !draft.text.allSatisfy(\.isWhitespace) || draft.poll != nil || !draft.media.isEmpty else {
            throw ServerRefusal("Validation failed: Text can't be blank")
        }
        if let id = draft.editing { return try edit(id, to: draft, by: author, at: now) }
        switch writing.answer(to: idempotencyKey, at: self.now, exists: { entry($0) != nil }) {
        case .made(let known): if let post = entry(known) { return post }
        case .deleted: throw PublishedPostDeleted()
        case .new: break
        }
        writing.made += 1
        let post = Post(
            id: PostID("post\(writing.made)"), author: author, text: draft.text, createdAt: now, contentWarning: draft.contentWarning,
            inReplyToID: draft.inReplyTo, visibility: draft.visibility
        )
        add([post])
        writing.remember(idempotencyKey, made: post.id, at: self.now)
        writing.publishedTexts[post.id] = draft.text
        timelines.prepend(post.id, to: [.home, .account(AccountID(author.id))])
        return post
    }

    private mutating func edit(_ id: PostID, to draft: Draft, by author: Author, at now: Date) throws -> Post {
        guard let before = original(of: id) else { throw RecordNotFound() }
        guard before.author.id == author.id else { throw ServerRefusal("This action is not allowed") }
        var versions = writing.versions[before.id] ?? [Self.version(of: before, at: before.createdAt)]
        let edited = update(before.id) { post in
            post.text = draft.text
            post.contentWarning = draft.contentWarning
            post.editedAt = now
        }
        guard let edited else { throw RecordNotFound() }
        versions.append(Self.version(of: edited, at: now))
        writing.versions[before.id] = versions
        writing.sources[before.id] = nil
        return edited
    }

    /// Deletes `author`'s post `id` (or the original a boost entry of theirs shows) and returns
    /// it as it was.
    ///
    /// - Throws: ``RecordNotFound`` for a post gone, ``ServerRefusal`` for someone else's post.
    package mutating func delete(_ id: PostID, by author: Author) throws -> Post {
        guard let post = original(of: id) else { throw RecordNotFound() }
        guard post.author.id == author.id else { throw ServerRefusal("This action is not allowed") }
        remove(post.id)
        writing.versions[post.id] = nil
        writing.sources[post.id] = nil
        return post
    }

    /// What `id` was written as: its source when the model keeps one apart
    /// (``ServerWriting/sources``), else its text and warning now.
    ///
    /// - Throws: ``RecordNotFound`` for a post gone.
    package func source(of id: PostID) throws(RecordNotFound) -> PostSource {
        guard let post = original(of: id) else { throw RecordNotFound() }
        return writing.sources[post.id] ?? PostSource(text: post.text, contentWarning: post.contentWarning)
    }

    /// The versions of `id`, oldest first: one for a post never edited.
    ///
    /// - Throws: ``RecordNotFound`` for a post gone.
    package func history(of id: PostID) throws(RecordNotFound) -> [PostVersion] {
        guard let post = original(of: id) else { throw RecordNotFound() }
        return writing.versions[post.id] ?? [Self.version(of: post, at: post.createdAt)]
    }

    /// Schedules `draft` as Mastodon does: refused when not more than 5 minutes ahead of the
    /// model's clock; one scheduled post per idempotency key.
    package mutating func schedule(_ draft: Draft, idempotencyKey: String) throws -> ScheduledPost {
        if let id = scheduledKeys[idempotencyKey], let known = scheduled.first(where: { $0.id == id }) { return known }
        guard let at = draft.scheduledAt, at.timeIntervalSince(now) > 300 else {
            throw ServerRefusal("Validation failed: Scheduled at The scheduled date must be in the future")
        }
        scheduledMade += 1
        let post = ScheduledPost(id: "s\(scheduledMade)", scheduledAt: at, text: draft.text, contentWarning: draft.warning, visibility: draft.visibility)
        scheduled.append(post)
        scheduled.sort { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) }
        scheduledKeys[idempotencyKey] = post.id
        return post
    }

    /// Moves the scheduled post `id` to `date`.
    package mutating func reschedule(_ id: String, to date: Date) throws -> ScheduledPost {
        guard let index = scheduled.firstIndex(where: { $0.id == id }) else { throw RecordNotFound() }
        guard date.timeIntervalSince(now) > 300 else { throw ServerRefusal("Validation failed: Scheduled at The scheduled date must be in the future") }
        scheduled[index].scheduledAt = date
        let post = scheduled[index]
        scheduled.sort { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) }
        return post
    }

    /// Cancels the scheduled post `id`.
    package mutating func cancelScheduled(_ id: String) throws {
        guard scheduled.contains(where: { $0.id == id }) else { throw RecordNotFound() }
        scheduled.removeAll { $0.id == id }
    }

    /// The translation of the post `id` names (its original), as ``translations`` has it.
    ///
    /// - Throws: ``RecordNotFound`` for a post it does not have; ``ServerRefusal`` when it
    ///   offers no translation of it.
    package func translation(of id: PostID) throws -> PostTranslation {
        guard let post = original(of: id) else { throw RecordNotFound() }
        guard let translation = translations[post.id] else { throw ServerRefusal("This server does not offer translations.") }
        return translation
    }

    private static func version(of post: Post, at date: Date) -> PostVersion {
        PostVersion(text: post.text, contentWarning: post.contentWarning, createdAt: date, media: post.media, poll: post.poll)
    }
}

extension ServerModel where Entry == Post {
    /// Votes `choices` on the poll `pollID` of the post `postID` and returns the poll after:
    /// each chosen option counts one more, and the poll says you voted and what.
    ///
    /// - Throws: ``RecordNotFound`` for a post or poll gone; ``ServerRefusal`` for an ended
    ///   poll, a second vote, or choices the poll does not take; nothing changes then.
    package mutating func vote(poll pollID: String, of postID: PostID, choices: [Int]) throws -> Poll {
        guard let post = original(of: postID), var poll = post.poll, poll.id == pollID else { throw RecordNotFound() }
        if poll.expired { throw ServerRefusal("Validation failed: The poll has already ended") }
        if poll.voted { throw ServerRefusal("Validation failed: You have already voted on this poll") }
        let picked = Set(choices)
        guard !picked.isEmpty, picked.allSatisfy(poll.options.indices.contains), poll.multiple || picked.count == 1 else {
            throw ServerRefusal("Validation failed: Choices are not valid")
        }
        for choice in picked { poll.options[choice].votes = (poll.options[choice].votes ?? 0) + 1 }
        poll.votesCount += picked.count
        poll.voted = true
        poll.ownVotes = picked.sorted()
        update(post.id) { $0.poll = poll }
        return poll
    }
}
