@_spi(FeedService) import Feedline
import Foundation
import Testing

extension GatedServer {
    /// Mastodon's sentence for a second vote in a poll: what ``refusingVotes()`` answers a vote.
    package static let refusedVoteSentence = "Validation failed: You have already voted on this poll"

    /// A server of one post, `q1` by Bea ("Tea or coffee?"), with an open poll of one choice
    /// (Tea 2 votes, Coffee 1) that refuses every vote as Mastodon refuses a second one; the
    /// timelines, the notifications and the post's screen answer, any other call fails the test.
    package static func refusingVotes() -> GatedServer {
        let post = Post(
            id: "q1", author: Author(id: "2", displayName: "Bea", handle: "bea"), text: "Tea or coffee?",
            createdAt: Date(timeIntervalSince1970: 1_795_280_000),
            poll: Poll(options: [.init(title: "Tea", votes: 2), .init(title: "Coffee", votes: 1)], votesCount: 3, expired: false, id: "p1")
        )
        let server = GatedServer(posts: [post], answering: [.page, .newer, .notifications, .newerNotifications, .post, .context])
        server.fail(.interaction, .vote, with: ServerRefusal(refusedVoteSentence))
        return server
    }
}
