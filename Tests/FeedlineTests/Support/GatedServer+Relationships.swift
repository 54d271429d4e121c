@_spi(FeedService) import Feedline
import FeedlineTestSupport
import Foundation
import Testing

extension GatedServer {
    /// A server of `posts` by several accounts and of the user's relationships with them:
    /// home and the local, public and `#tea` feeds list `posts` (newest first), each author's
    /// profile lists the entries they posted or boosted; every author (boosters and boosted)
    /// has a profile ("Bio of …", locked when in `locked`: a follow of them is a request) and
    /// follows every other author. Relationship changes wait until the test answers them (in
    /// any order) or fails them, each applied to the model when answered; pages, profiles,
    /// relationships, lists of accounts (two a page), searches, threads, interactions and follow
    /// request answers answer at once; a hashtag's header is not served. With `me`, compose settings name the user; without, writing is
    /// unsupported.
    static func relationships(
        posts: [Post], relationships: [Relationship] = [], locked: Set<AccountID> = [], notifications: [NotificationGroup] = [], me: Author? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> GatedServer {
        var model = ServerModel(posts)
        for feed: Feed in [.home, .local, .public, .tag("tea")] { model.timelines.feeds[feed] = posts.map(\.id) }
        var authors: [Author] = []
        for author in posts.flatMap({ [$0.author, $0.content.author] }) where !authors.contains(where: { $0.id == author.id }) { authors.append(author) }
        for author in authors {
            let id = AccountID(author.id)
            model.timelines.feeds[.account(id)] = posts.filter { $0.author.id == author.id }.map(\.id)
            model.relationships.profiles[id] = Profile(author: author, bio: "Bio of \(author.name).", locked: locked.contains(id))
            model.relationships.followers[id] = authors.filter { $0.id != author.id }.map { AccountID($0.id) }
        }
        model.relationships.locked = locked
        for relationship in relationships { model.relationships.byAccount[relationship.accountID] = relationship }
        model.timelines.notifications = notifications
        model.now = testNow
        let server = GatedServer(
            model, me: me ?? Post.signedInUser, accountsPageSize: 2,
            answering: [
                .page, .newer, .notifications, .newerNotifications, .post, .context, .interaction, .profile, .relationships, .accounts, .search,
                .answerFollowRequest,
            ],
            sourceLocation: sourceLocation
        )
        server.hold(.setRelationship)
        server.fail(.tag, with: AccountsUnsupported())
        if me != nil { server.answer(.composeSettings) } else { server.fail(.composeSettings, with: WritingUnsupported()) }
        return server
    }

    /// Returns once at least `count` calls wait.
    func waitForChanges(_ count: Int) async { await held.waitFor(count) }

    /// Answers every call waiting, and from now on every relationship change as it comes.
    func answerEverything() {
        answer(.setRelationship)
        while answerHeld(at: 0) {}
    }

    /// Fails the call waiting at `index`, changing nothing: refused ("Forbidden."), or for lack
    /// of a connection (`transient`).
    func fail(at index: Int, transient: Bool) {
        failHeld(at: index, with: FeedFailure(message: transient ? "The server is unavailable." : "Forbidden.", isTransient: transient))
    }

    /// The relationship with `account` on the server now.
    func truth(_ account: AccountID) -> Relationship { model.relationship(of: account) }

    /// `accounts` ask to follow the user, from now on.
    func setRequesters(_ accounts: [AccountID]) {
        update { model in
            for id in accounts { model.relationships.byAccount[id, default: Relationship(accountID: id)].requestedBy = true }
        }
    }

    /// Refuses follow request answers ("Forbidden."), or (`false`) answers them from the model.
    func refuseAnswers(_ refuse: Bool) {
        if refuse {
            fail(.answerFollowRequest, with: FeedFailure(message: "Forbidden.", isTransient: false))
        } else {
            answer(.answerFollowRequest)
        }
    }

    /// The follow request answers received, as (account, accept), in order.
    var answers: [(AccountID, Bool)] { calls(.answerFollowRequest).map { (AccountID($0.key), $0.value == true) } }
}

extension GatedCall {
    /// The account a relationship change is about.
    var account: AccountID { AccountID(key) }
}
