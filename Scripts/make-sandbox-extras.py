#!/usr/bin/env python3
"""Writes the parts of the `Fixtures/timeline/` sandbox that are not on the home timeline.

The sandbox (`SandboxService`) serves more than the home feed: account profiles, hashtag feeds,
bookmarks, the user's own posts and notifications. The hand-written home timeline alone makes
those screens short (Kemi has 11 posts on it, #birds has 7, the user none), so this script
generates, deterministically:

- `Fixtures/timeline/elsewhere.json` (the scenario's `elsewhere`): statuses the server knows that
  the home timeline does not show, newest first:
  - 27 older posts by kemi@fieldnotes.science (2026-10-20 to 2026-11-15, three of them bookmarked),
    so her profile has more than two pages of 20;
  - 25 public #birds posts by eleven accounts (2026-11-01 to 2026-11-20; two of them are Kemi's),
    so the #birds feed has more than two pages of 20; one of them was edited after the user
    boosted it (the `update` notification);
  - 16 posts by the signed-in user `you` (2026-11-10 to 2026-11-21), one with an expired poll;
  - 6 replies by others to the user's posts (one of them Kemi's).
- `Fixtures/timeline/notifications.json` (the scenario's `notifications`): 82 Mastodon v1
  notifications, newest first, 2026-11-12 to 2026-11-21T17:00Z: bursts of favourites and boosts
  of the user's posts, bursts of follows and single follows, mentions (the six replies), a poll
  that ended and an edit. Under Mastodon 4.3's grouping (favourites and boosts of one post, and
  follows, join the group whose first hour bucket is less than 12 hours earlier) they make
  36 groups; some bursts sit exactly on the 12-hour edge.

Accounts are copied from the statuses already in the directory (and `you` from scenario.json's
`account`), plus six new remote accounts defined below. Status ids are snowflakes made from the
post's time (milliseconds << 16, random low bits) and checked against every id already there.

Standard library only, no network, fixed seed: running it again rewrites both files byte for
byte as long as the hand-written fixture files it reads are unchanged.

Usage: Scripts/make-sandbox-extras.py        (from anywhere; paths are relative to this script)
"""
import calendar
import json
import random
import re
import sys
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMELINE = ROOT / "Fixtures" / "timeline"
ELSEWHERE = "elsewhere.json"
NOTIFICATIONS = "notifications.json"
SCENARIO = "scenario.json"
SEED = 20261121
HOST = "tidepool.social"
YOU_ID = "109296114702930001"
FIRST_NOTIFICATION_ID = 48100000
NOW = datetime(2026, 11, 21, 18, 0)  # "now" in scripted sessions

rng = random.Random(SEED)


# MARK: - Reading what is there


def read_existing():
    """Account objects by acct, and every status and media id, from the hand-written files."""
    accounts, ids = {}, set()
    for path in sorted(TIMELINE.glob("*.json")):
        if path.name in (ELSEWHERE, NOTIFICATIONS, SCENARIO):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        for entry in data if isinstance(data, list) else [data]:
            for status in (entry, entry.get("reblog")):
                if not status:
                    continue
                ids.add(status["id"])
                ids.update(media["id"] for media in status["media_attachments"])
                accounts.setdefault(status["account"]["acct"], status["account"])
    scenario = json.loads((TIMELINE / SCENARIO).read_text(encoding="utf-8"))
    return accounts, ids, scenario["account"]


ACCOUNTS, USED_IDS, YOU = read_existing()
assert YOU["id"] == YOU_ID and YOU["acct"] == "you", "scenario.json's account is not the user"


def new_account(id, username, host, display_name, created, note, followers, following, statuses, last_status):
    """A remote Mastodon account shaped like the ones in the home files."""
    avatar_dir = f"{id[0:3]}/{id[3:6]}/{id[6:9]}"
    account = {
        "id": id,
        "username": username,
        "acct": f"{username}@{host}",
        "display_name": display_name,
        "locked": False,
        "bot": False,
        "discoverable": True,
        "indexable": True,
        "group": False,
        "created_at": f"{created}T00:00:00.000Z",
        "note": f"<p>{esc(note)}</p>",
        "url": f"https://{host}/@{username}",
        "uri": f"https://{host}/users/{username}",
        "avatar": f"https://files.tidepool.social/cache/accounts/avatars/{avatar_dir}/original/{username}.png",
        "avatar_static": f"https://files.tidepool.social/cache/accounts/avatars/{avatar_dir}/original/{username}.png",
        "header": f"https://files.tidepool.social/cache/accounts/headers/{avatar_dir}/original/{username}.jpg",
        "header_static": f"https://files.tidepool.social/cache/accounts/headers/{avatar_dir}/original/{username}.jpg",
        "followers_count": followers,
        "following_count": following,
        "statuses_count": statuses,
        "last_status_at": last_status,
        "hide_collections": False,
        "emojis": [],
        "fields": [],
    }
    assert account["acct"] not in ACCOUNTS
    ACCOUNTS[account["acct"]] = account
    return account


# MARK: - HTML, times and ids


def esc(text):
    """Escapes text the way Mastodon's HTML does (apostrophes as &#39;)."""
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")
    )


# A hashtag: `#` not inside a word or an entity like `&#39;`.
HASHTAG = re.compile(r"(?<![&\w])#(\w+)")


def render(text, account, mention_you=False):
    """The HTML content and the tags of `text`: `#word` becomes a hashtag link on the author's
    server, blank lines separate paragraphs, single newlines are line breaks."""
    host = account_host(account)
    akkoma = host == "bramble.zone"
    names = []

    def link(match):
        name = match.group(1)
        if name.lower() not in [n.lower() for n in names]:
            names.append(name)
        if akkoma:
            return f'<a class="hashtag" data-tag="{name.lower()}" href="https://{host}/tag/{name.lower()}" rel="tag ugc">#{name}</a>'
        return f'<a href="https://{host}/tags/{name}" class="mention hashtag" rel="tag">#<span>{name}</span></a>'

    paragraphs = [HASHTAG.sub(link, esc(p)) for p in text.strip().split("\n\n")]
    if akkoma:
        html = "<br/><br/>".join(p.replace("\n", "<br/>") for p in paragraphs)
    else:
        if mention_you:
            paragraphs[0] = (
                f'<span class="h-card"><a href="https://{HOST}/@you" class="u-url mention">@<span>you</span></a></span> '
                + paragraphs[0]
            )
        html = "".join(f"<p>{p.replace(chr(10), '<br />')}</p>" for p in paragraphs)
    tags = [{"name": n.lower(), "url": f"https://{HOST}/tags/{n.lower()}"} for n in names]
    return html, tags


def account_host(account):
    return account["acct"].split("@", 1)[1] if "@" in account["acct"] else HOST


def at(text):
    """A time from "2026-11-12 07:55" plus random seconds and milliseconds."""
    minute = datetime.strptime(text, "%Y-%m-%d %H:%M")
    return minute + timedelta(seconds=rng.randrange(60), milliseconds=rng.randrange(1000))


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def epoch_ms(moment):
    return calendar.timegm(moment.timetuple()) * 1000 + moment.microsecond // 1000


def snowflake(moment, used=USED_IDS):
    """A Mastodon-style id made at `moment`, not already in `used` (which it joins)."""
    while True:
        value = str((epoch_ms(moment) << 16) | rng.randrange(1 << 16))
        if value not in used:
            used.add(value)
            return value


def hexname(length=16):
    return "".join(rng.choice("0123456789abcdef") for _ in range(length))


BASE83 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~"
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def blurhash():
    """A well-formed 4×3-component blurhash (size flag, then 27 digits)."""
    return "L" + "".join(rng.choice(BASE83) for _ in range(27))


def media(moment, account, description, width, height):
    """An image attachment uploaded shortly before the post at `moment`."""
    uploaded = moment - timedelta(seconds=rng.randrange(20, 600))
    id = snowflake(uploaded)
    name = hexname()
    folder = "/".join(id[i : i + 3] for i in range(0, 18, 3))
    remote = "@" in account["acct"]
    base = f"https://files.tidepool.social/{'cache/' if remote else ''}media_attachments/files/{folder}"
    small_height = round(640 * height / width)
    return {
        "id": id,
        "type": "image",
        "url": f"{base}/original/{name}.jpg",
        "preview_url": f"{base}/small/{name}.jpg",
        "remote_url": f"https://{account_host(account)}/media/{hexname()}.jpg" if remote else None,
        "preview_remote_url": None,
        "text_url": None,
        "meta": {
            "original": {"width": width, "height": height, "size": f"{width}x{height}", "aspect": round(width / height, 6)},
            "small": {"width": 640, "height": small_height, "size": f"640x{small_height}", "aspect": round(640 / small_height, 6)},
        },
        "description": description,
        "blurhash": blurhash(),
    }


def status(
    account,
    when,
    text,
    *,
    language="en",
    counts=None,
    images=(),
    reply_to=None,
    bookmarked=False,
    reblogged=False,
    edited=None,
    poll=None,
    spoiler="",
):
    """A public status as tidepool.social's API sends it. `counts` is (replies, boosts,
    favourites), random when absent; `images` are (description, width, height)."""
    moment = at(when)
    id = snowflake(moment)
    acct = account["acct"]
    host = account_host(account)
    if host == HOST:
        uri = f"https://{HOST}/users/{account['username']}/statuses/{id}"
        url = f"https://{HOST}/@{account['username']}/{id}"
    elif host == "bramble.zone":  # Akkoma
        uuid = hexname(32)
        uri = f"https://{host}/objects/{uuid[:8]}-{uuid[8:12]}-4{uuid[13:16]}-{'89ab'[rng.randrange(4)]}{uuid[17:20]}-{uuid[20:]}"
        url = f"https://{host}/notice/" + "".join(rng.choice(BASE62) for _ in range(18))
    else:
        remote_id = (epoch_ms(moment) << 16) | rng.randrange(1 << 16)
        uri = f"https://{host}/users/{account['username']}/statuses/{remote_id}"
        url = f"https://{host}/@{account['username']}/{remote_id}"
    if counts is None:
        counts = (rng.choice([0, 0, 0, 1, 1, 2, 3]), rng.randrange(0, 14), rng.randrange(4, 70))
    content, tags = render(text, account, mention_you=reply_to is not None)
    entry = {
        "id": id,
        "created_at": iso(moment),
        "in_reply_to_id": reply_to["id"] if reply_to else None,
        "in_reply_to_account_id": reply_to["account"]["id"] if reply_to else None,
        "sensitive": bool(spoiler),
        "spoiler_text": spoiler,
        "visibility": "public",
        "language": language,
        "uri": uri,
        "url": url,
        "replies_count": counts[0],
        "reblogs_count": counts[1],
        "favourites_count": counts[2],
        "quotes_count": 0,
        "edited_at": iso(at(edited)) if edited else None,
        "favourited": False,
        "reblogged": reblogged,
        "muted": False,
        "bookmarked": bookmarked,
        "content": content,
        "filtered": [],
        "reblog": None,
    }
    if "@" not in acct:
        entry["application"] = {"name": "Web", "website": None}
    entry["account"] = account
    entry["media_attachments"] = [media(moment, account, *image) for image in images]
    entry["mentions"] = (
        [{"id": YOU["id"], "username": YOU["username"], "url": YOU["url"], "acct": YOU["acct"]}] if reply_to else []
    )
    entry["tags"] = tags
    entry["emojis"] = []
    entry["quote"] = None
    entry["card"] = None
    entry["poll"] = poll(moment) if poll else None
    return entry


# MARK: - Accounts

kemi = ACCOUNTS["kemi@fieldnotes.science"]
mira, ruth, nadia = ACCOUNTS["mira"], ACCOUNTS["ruth"], ACCOUNTS["nadia"]
sam, rowan = ACCOUNTS["sam@inkwell.art"], ACCOUNTS["rowan@bramble.zone"]
tomas, layla = ACCOUNTS["tomas@kettle.town"], ACCOUNTS["layla@nakhla.social"]
birdlog = ACCOUNTS["birdlog@feeders.cloud"]

elin = new_account(
    "110512340098761203", "elin", "myr.social", "Elin Sandberg", "2023-06-02",
    "Wetland birder on the Baltic coast. Counts waders for the county atlas. Svenska/English.",
    880, 412, 2630, "2026-11-20",
)
kwame = new_account(
    "109871200456123007", "kwame", "kestrel.social", "Kwame Osei", "2023-02-11",
    "Raptor ringer and trainee bird guide. Kestrels are the best falcons and I will not be taking questions.",
    1425, 360, 3312, "2026-11-19",
)
marisol = new_account(
    "110259901234567340", "marisol", "garza.social", "Marisol Vega 🪶", "2023-04-27",
    "Birding the Albufera de València before work. Herons, egrets and far too many gulls.",
    2087, 530, 4120, "2026-11-20",
)
pete = new_account(
    "109455670012340088", "pete", "moorhen.club", "Pete Llewellyn", "2022-12-05",
    "Retired postman. Same local patch every morning since 1994. Notebook, flask, binoculars.",
    615, 140, 5891, "2026-11-19",
)
yuki = new_account(
    "111204567890123456", "yuki", "enaga.social", "佐藤 雪", "2023-10-09",
    "野鳥観察とスケッチ。北海道。Birding and sketching in Hokkaido.",
    1930, 288, 2244, "2026-11-16",
)
theo = new_account(
    "110733400987612045", "theo", "quill.town", "Theo Marsh", "2023-07-18",
    "Second-hand bookseller. The shop cat is called Dewey, obviously.",
    742, 655, 1580, "2026-11-18",
)


# MARK: - Kemi's older posts (2026-10-20 … 2026-11-15)

KEMI_POSTS = [
    ("2026-10-20 07:48", "Common darters still flying at Pond 7 on 20 October. Eleven of them, all males, all sunbathing on the same fence post. #dragonflies", {}),
    ("2026-10-21 15:20", "Pond dipping with a Year 5 class today. Finds: 4 damselfly larvae, 1 great diving beetle, about 30 water boatmen and 1 lost wellington (ours). #citizenscience", {}),
    ("2026-10-22 19:05", "Sorting last month's samples under the microscope. There is a specific kind of quiet in a lab at 7pm that I will never get tired of.", {}),
    ("2026-10-23 08:31", "Reminder that a dragonfly larva can shoot out its lower jaw (the labium) in about 15 milliseconds to grab prey. Nature invented the grabby claw long before the arcades did. #dragonflies", {}),
    ("2026-10-24 12:14", "How to tell a dragonfly larva from a damselfly larva, the 10-second version:\n\nDamselflies have three leaf-like gills at the tail end. Dragonflies have none and breathe through their bum. Yes, really. #dragonflies", {"bookmarked": True}),
    ("2026-10-25 17:40", "Pond 3 has frogspawn-sized holes in its liner and a resident moorhen who thinks the holes are her fault. They are not her fault. (They are probably the heron's.)", {}),
    ("2026-10-27 10:02", "Our eDNA pilot results are in: 17 of 18 ponds have great crested newt DNA. The 18th is the one next to the car park. Make of that what you will. #ecology", {}),
    ("2026-10-28 09:15", "Grant deadline Friday. If I post about dragonflies this week it is procrastination and you should tell me so.", {}),
    ("2026-10-29 16:52", "(This is procrastination.) Migrant hawkers are still patrolling the canal towpath. Late October! They did not get the memo. #dragonflies", {}),
    ("2026-10-30 22:37", "Grant submitted. 41 pages. The budget justification for \"waders, chest, 6 pairs\" ended up longer than the methods section.", {}),
    ("2026-10-31 11:11", "Happy Halloween from the most terrifying predator in your local pond: a 3 cm dragonfly larva that eats tadpoles, small fish and, on one memorable occasion, another dragonfly larva.", {
        "spoiler": "close-up of a pond predator",
        "images": [("A dragonfly larva on a white tray, jaw extended, holding a tadpole.", 1600, 1200)],
    }),
    ("2026-11-01 14:26", "Cleaning and drying all the dip nets for winter storage. 34 nets. I know each one by its holes.", {}),
    ("2026-11-02 07:59", "First frosty morning on the ponds. Pond 7 had a kingfisher on the dipping platform, which I am taking as a personal endorsement of the platform. #birds", {}),
    ("2026-11-03 13:45", "Protocol for anyone joining the winter pond survey:\n1) same spot each visit\n2) one photo of the water surface\n3) count what you see for 10 minutes\n4) \"I don't know what this is\" is a valid record.\n\nWe check everything. #citizenscience", {"bookmarked": True}),
    ("2026-11-04 15:30", "Reading group today: a 1974 paper on dragonfly emergence with hand-drawn graphs. Someone in 1974 drew 600 tiny triangles by hand. Respect.", {}),
    ("2026-11-05 08:06", "Water temperature at Pond 12 this morning: 6.1 °C. Same day last year: 8.4 °C. One data point is not a trend, but I wrote it down twice anyway. #fieldwork", {}),
    ("2026-11-06 11:48", "Student question of the week: \"Do dragonflies sleep?\"\n\nHonest answer: they have rest states, we think, and nobody has put a tiny EEG on one yet. PhD projects available. #dragonflies", {}),
    ("2026-11-07 16:10", "Friday fieldwork: three ponds, two flasks of tea, one grey heron who followed us from pond to pond like a supervisor. #fieldwork", {
        "images": [("A grey heron standing at the edge of a small pond, watching two people in waders.", 2048, 1365)],
    }),
    ("2026-11-08 14:03", "Saturday: not doing fieldwork.\nSaturday afternoon: \"just quickly checking\" Pond 7.\n\nIt's a problem.", {}),
    ("2026-11-09 09:22", "Volunteer bird count at the flooded meadow: 64 lapwings, about 210 golden plover, 2 snipe, and 1 peregrine that made all of the above leave at once. #birds #citizenscience", {}),
    ("2026-11-10 12:00", "Our paper on pond restoration is out, open access. Key finding: ponds dug by volunteers with spades do as well as ponds dug by contractors with diggers, and they have better stories. #ecology", {}),
    ("2026-11-11 20:44", "Entering 2,140 larva records into the database by hand because the app crashed in August and nobody noticed until now. It's fine. Everything is fine.", {}),
    ("2026-11-12 18:19", "Winter reading for pond people: Philip Corbet's \"Dragonflies: Behaviour and Ecology of Odonata\" (the big one, heavy enough to press flowers with), plus any good pocket field guide for the spring. #dragonflies", {"bookmarked": True}),
    ("2026-11-13 10:37", "Found a common darter larva that is very clearly not going to emerge until spring. It looked at me like I owed it rent.", {}),
    ("2026-11-13 17:55", "Pond 12's culvert is blocked again. Photos and water levels sent to the council. Round two. #ecology", {}),
    ("2026-11-14 09:41", "Water level at Pond 12 down another 9 cm this week. If anyone on here works for the council's drainage team, I will buy you a very large coffee.", {}),
    ("2026-11-15 19:26", "Planning the spring survey: 18 ponds, maybe 40 volunteers if we're lucky, and 1 spreadsheet that needs to become a database before it becomes sentient. #citizenscience", {}),
]


# MARK: - #birds posts (2026-11-01 … 2026-11-20), besides Kemi's two


def feeder(when, feeder_number, species, count, temperature, note=""):
    minute = when[-5:]
    individuals = f"{count} individual" + ("s" if count != 1 else "")
    extra = f" {note}" if note else ""
    return (
        birdlog,
        when,
        f"Sighting at feeder {feeder_number}, {minute}: {species}, {individuals}.{extra} Temperature {temperature} °C. #birds #birdfeeder",
        {},
    )


BIRD_POSTS = [
    feeder("2026-11-01 07:44", 1, "Goldfinch (Carduelis carduelis)", 4, 5),
    ("elin", "2026-11-03 09:12", "Morning count at the bay: 340 dunlin, 25 grey plover, 4 bar-tailed godwits, and one white-tailed eagle that sent the whole lot up at once. Worth it for the sound. #birds #waders", {}),
    feeder("2026-11-04 08:03", 2, "Dunnock (Prunella modularis)", 1, 3),
    ("kwame", "2026-11-05 13:27", "Ringing session this morning: 14 birds, including a juvenile sparrowhawk who bit me twice and was entirely within her rights. #birds #ringing", {}),
    ("marisol", "2026-11-06 07:58", "Sunrise at the Albufera: about 200 glossy ibis flying over the rice fields, one long line that took a full minute to pass. #birds", {
        "images": [("A long line of dark ibises flying low over flooded rice fields at sunrise.", 2048, 1152)],
    }),
    ("pete", "2026-11-07 08:40", "Patch notes, day eleven thousand or so: redwings back in the hawthorns, 30+. Flask of tea, notebook, binoculars, wet feet. Perfect. #birds", {}),
    feeder("2026-11-08 07:51", 1, "Great tit (Parus major)", 2, 4),
    ("yuki", "2026-11-09 06:35", "今朝、川沿いでシマエナガの群れに会いました。十羽くらい。寒い日ほど丸くなる鳥です。 #birds #野鳥", {
        "language": "ja",
        "images": [("雪の積もった枝にとまる、白くて丸いシマエナガ。", 1600, 1067)],
    }),
    ("elin", "2026-11-10 14:16", "Snow buntings on the beach again! Six of them, scurrying between the tide wrack like wind-up toys. #birds", {}),
    ("mira", "2026-11-11 07:02", "Pager went off at 06:12, fixed by 06:40, and then a heron landed on the roof opposite and stared at me until 07:00. Best on-call shift of the year. #birds", {}),
    feeder("2026-11-11 08:26", 2, "Chaffinch (Fringilla coelebs)", 3, 2),
    ("rowan", "2026-11-12 15:49", "a wren has moved into the bean canes on the allotment.\nit is very small and very loud and I have never felt more respected #birds", {}),
    ("kwame", "2026-11-12 08:10", "Kestrel hovering over the motorway verge at 08:10, same spot as every morning this week. I now plan my commute around her. #birds", {}),
    ("marisol", "2026-11-13 09:05", "Hoy en el Tancat de la Pipa: garceta grande, martinete y tres moritos. Y un fotógrafo con un objetivo más grande que yo. #birds #aves", {"language": "es"}),
    ("sam", "2026-11-14 10:33", "Sketched the cormorants drying their wings on the harbour wall this morning. They hold a pose better than any life-drawing model. #birds #sketchbook", {
        "images": [("Ink sketches of three cormorants on a wall, wings spread out to dry.", 1920, 1440)],
    }),
    feeder("2026-11-14 07:37", 1, "Greenfinch (Chloris chloris)", 1, 0, "First since March!"),
    ("pete", "2026-11-15 09:18", "Goldcrest in the churchyard yews, close enough to see the orange in its crest. Five grams of bird, all of it attitude. #birds", {}),
    ("yuki", "2026-11-16 05:50", "オオワシが今年も湖に戻ってきました。双眼鏡を持つ手が震えたのは、寒さのせいだけではありません。 #birds", {"language": "ja"}),
    ("elin", "2026-11-17 12:42", "Första sidensvansarna för säsongen i rönnen utanför kontoret. Trettio stycken, och bären var borta på en timme. #birds #fåglar", {"language": "sv"}),
    # The user boosted this one; Pete corrected it the next morning (the `update` notification).
    ("pete", "2026-11-18 08:12", "Patch report: firecrest in the churchyard yews! First one on the patch since 2009. Photo is terrible, bird was not. #birds\n\n(Edit: yes, definitely a firecrest, not a goldcrest: that white eyebrow. Thanks, everyone who checked the photo.)", {
        "edited": "2026-11-19 07:30",
        "reblogged": True,
        "counts": (4, 9, 37),
        "images": [("A blurry small green bird with a black and white striped face, half hidden in dark yew needles.", 1600, 1200)],
    }),
    ("ruth", "2026-11-19 15:47", "Story time theme this week: birds! We made paper owls. One child informed me that owls can turn their heads all the way round (they can't, it's about 270°) and I have never been so thoroughly fact-checked. #birds", {}),
    ("kwame", "2026-11-19 19:30", "Trainee guide exam passed! Forty birds by call, thirty by silhouette, and one by \"the little brown one that looks annoyed\" (dunnock). #birds", {}),
    ("marisol", "2026-11-20 17:41", "Counted 1,400 black-headed gulls coming in to roost on the lake. Fine, estimated. Nobody counts 1,400 gulls. #birds", {}),
]


# MARK: - The user's posts (2026-11-10 … 2026-11-21T12:00Z)

YOUR_POSTS = [
    ("P1", "2026-11-10 07:42", "First frost on the ride in. Gloves: forgotten. Lesson: learned, probably. #cycling", {}),
    ("P2", "2026-11-10 19:15", "Finished \"The Left Hand of Darkness\" on the train home. I think I need a quiet week to recover from that ending.", {}),
    ("P3", "2026-11-11 08:05", "Planted the last tulip bulbs in the window boxes. 40 bulbs, 2 boxes, 1 very suspicious pigeon supervising the whole time. #gardening", {
        "images": [("Two wooden window boxes full of fresh soil, a trowel and an empty bulb bag on the sill.", 1600, 1200)],
    }),
    ("P4", "2026-11-11 21:30", "Library haul: three novels, one book about moss, and a cookbook I will read like a novel and never cook from.", {}),
    ("P5", "2026-11-12 07:55", "Took the long way round the reservoir this morning. 23 km, one heron, zero cars for the first 5 km. Best commute of the year. #cycling", {
        "images": [("A bicycle leaning on a railing beside a misty reservoir at dawn.", 2048, 1365)],
    }),
    ("P6", "2026-11-12 20:40", "Re-reading \"Piranesi\". \"The Beauty of the House is immeasurable; its Kindness infinite.\" Still true the second time.", {}),
    ("P7", "2026-11-13 12:10", "What should I read next? Long weekend, full library card, no plans.", {"poll": True}),
    ("P8", "2026-11-14 16:30", "The poll has spoken, and it did not agree with me: \"A Psalm for the Wild-Built\" it is. Tea is on, phone is going in a drawer.", {}),
    ("P9", "2026-11-15 10:20", "Picked the last chillies from the balcony plant before the cold snap. Eleven chillies. The plant looks relieved. #gardening", {
        "images": [("A handful of small red and orange chillies next to a potted chilli plant on a balcony.", 1200, 1600)],
    }),
    ("P10", "2026-11-16 08:10", "Fixed my own flat tyre for the first time without watching a video. Took 25 minutes and I am irrationally proud. #cycling", {}),
    ("P11", "2026-11-16 21:05", "Finished \"A Psalm for the Wild-Built\". Exactly the book I needed this month: kind, short, and it made me want to go and sit in a forest for a while.", {}),
    ("P12", "2026-11-17 18:45", "The compost bin is warm to the touch in November. I checked twice. Science is happening in there. #gardening", {}),
    ("P13", "2026-11-18 07:30", "A robin has claimed the balcony railing as its office. Arrives at 7:30, shouts at the street, leaves at 7:45. Same as me, really.", {}),
    ("P14", "2026-11-19 13:00", "Bike shop said my chain was \"very well loved\", which I am choosing to hear as a compliment.", {}),
    ("P15", "2026-11-20 20:15", "Book club tonight. Seven people, one book, and apparently seven completely different books.", {}),
    ("P16", "2026-11-21 09:40", "Saturday plan: move the herb pots indoors, repot the rosemary, drink coffee while pretending to do the first two. #gardening", {}),
]

# Favourites and boosts that came before the notifications start (2026-11-12), per post.
EARLIER_COUNTS = {"P1": (7, 1), "P2": (9, 1), "P3": (12, 2), "P4": (5, 0)}

POLL_OPTIONS = [("Middlemarch, finally", 9), ("The Overstory", 14), ("A Psalm for the Wild-Built", 21), ("Something with a dragon", 6)]


def your_poll(created):
    votes = sum(count for _, count in POLL_OPTIONS)
    return {
        "id": "64518",
        "expires_at": iso(created + timedelta(days=1)),
        "expired": True,
        "multiple": False,
        "votes_count": votes,
        "voters_count": votes,
        "voted": True,
        "own_votes": [0],
        "options": [{"title": title, "votes_count": count} for title, count in POLL_OPTIONS],
        "emojis": [],
    }


# Replies to the user's posts: (author, post, time, text). Each is also a mention notification.
REPLIES = [
    (ruth, "P6", "2026-11-12 21:14", "Piranesi is the book I hand to people who say they \"don't really read fantasy\". It has never once failed."),
    (theo, "P7", "2026-11-13 13:05", "Voting Middlemarch on principle, but if the Becky Chambers wins I have a spare copy of the sequel at the shop."),
    (tomas, "P10", "2026-11-16 09:31", "The first self-fixed flat is a rite of passage. Next level: doing it in the rain at the side of a road. Welcome to the club 🚲"),
    (layla, "P11", "2026-11-16 22:12", "Now read the sequel, \"A Prayer for the Crown-Shy\". Same gentleness, more tea."),
    (kemi, "P12", "2026-11-17 19:23", "Warm compost in November means your microbes are thriving. Turn it once a fortnight and it'll be ready by spring. 🪱"),
    (mira, "P15", "2026-11-20 21:02", "\"Seven completely different books\" is the best possible book club outcome. Which book was it?"),
]


# MARK: - Notifications plan (2026-11-12 … 2026-11-21T17:00Z)

# Favourites per post: bursts of times. Bursts more than 12 hours after a group's first hour
# bucket start a new group (P5's next-morning pair, P10's 20:30 one; P10's 18:20 one is just
# inside its morning group).
FAVOURITES = {
    "P2": ["2026-11-12 09:02"],
    "P5": ["2026-11-12 08:14", "2026-11-12 08:31", "2026-11-12 08:58", "2026-11-12 09:40", "2026-11-12 10:22",
           "2026-11-12 11:05", "2026-11-12 12:47", "2026-11-13 10:05", "2026-11-13 10:51"],
    "P6": ["2026-11-12 20:52", "2026-11-12 21:30", "2026-11-12 23:18"],
    "P7": ["2026-11-13 12:31", "2026-11-13 13:58"],
    "P8": ["2026-11-14 16:41", "2026-11-14 17:05", "2026-11-14 17:50", "2026-11-14 18:59"],
    "P9": ["2026-11-15 10:33", "2026-11-15 11:12", "2026-11-15 12:40", "2026-11-15 14:02", "2026-11-15 15:27"],
    "P10": ["2026-11-16 08:24", "2026-11-16 08:51", "2026-11-16 09:33", "2026-11-16 11:10", "2026-11-16 14:45",
            "2026-11-16 18:20", "2026-11-16 20:30"],
    "P11": ["2026-11-16 21:18", "2026-11-16 21:57", "2026-11-16 23:04"],
    "P12": ["2026-11-17 18:58", "2026-11-17 20:11"],
    "P13": ["2026-11-18 07:41", "2026-11-18 07:55", "2026-11-18 08:30", "2026-11-18 10:12", "2026-11-18 13:49"],
    "P14": ["2026-11-19 13:20", "2026-11-19 14:05", "2026-11-19 16:40"],
    "P15": ["2026-11-20 20:30", "2026-11-20 20:47", "2026-11-20 21:35", "2026-11-20 22:10"],
    "P16": ["2026-11-21 10:02", "2026-11-21 11:48", "2026-11-21 16:31"],
}
REBLOGS = {
    "P5": ["2026-11-12 08:35", "2026-11-12 09:44"],
    "P6": ["2026-11-12 22:05"],
    "P9": ["2026-11-15 11:20"],
    "P10": ["2026-11-16 08:44", "2026-11-16 09:20", "2026-11-16 12:02"],
    "P13": ["2026-11-18 07:52", "2026-11-18 14:03"],
    "P16": ["2026-11-21 11:02"],
}
# Follows: bursts within hours, and single ones days apart.
FOLLOWS = [
    ("elin@myr.social", "2026-11-13 09:12"),
    ("kwame@kestrel.social", "2026-11-13 10:40"),
    ("marisol@garza.social", "2026-11-13 12:55"),
    ("theo@quill.town", "2026-11-14 22:03"),
    ("pete@moorhen.club", "2026-11-16 10:05"),
    ("yuki@enaga.social", "2026-11-16 11:30"),
    ("lin@inkwell.art", "2026-11-16 13:15"),
    ("wen@teahouse.cafe", "2026-11-16 14:40"),
    ("rowan@bramble.zone", "2026-11-17 06:10"),
    ("aoi@ginkgo.garden", "2026-11-19 09:20"),
    ("hugo@kettle.town", "2026-11-19 12:45"),
    ("nadia", "2026-11-20 15:10"),
    ("sam@inkwell.art", "2026-11-21 16:25"),
]
# Who favourites and boosts the user's posts (people, not the feeder bot or the admin).
FANS = sorted(acct for acct in ACCOUNTS if acct not in ("tidepool", "birdlog@feeders.cloud"))


# MARK: - Building


def build():
    elsewhere = []
    for when, text, options in KEMI_POSTS:
        elsewhere.append(status(kemi, when, text, **options))
    by_name = {"elin": elin, "kwame": kwame, "marisol": marisol, "pete": pete, "yuki": yuki, "mira": mira,
               "ruth": ruth, "rowan": rowan, "sam": sam}
    update_target = None
    for author, when, text, options in BIRD_POSTS:
        account = author if isinstance(author, dict) else by_name[author]
        entry = status(account, when, text, **options)
        if entry["edited_at"]:
            update_target = entry
        elsewhere.append(entry)

    replies_to = {}
    for _, post, _, _ in REPLIES:
        replies_to[post] = replies_to.get(post, 0) + 1
    yours = {}
    for key, when, text, options in YOUR_POSTS:
        earlier_favourites, earlier_boosts = EARLIER_COUNTS.get(key, (0, 0))
        counts = (
            replies_to.get(key, 0),
            earlier_boosts + len(REBLOGS.get(key, [])),
            earlier_favourites + len(FAVOURITES.get(key, [])),
        )
        options = dict(options)
        if options.pop("poll", False):
            options["poll"] = your_poll
        yours[key] = status(YOU, when, text, counts=counts, **options)
        elsewhere.append(yours[key])

    replies = []
    for author, post, when, text in REPLIES:
        reply = status(author, when, text, reply_to=yours[post], counts=(0, 0, rng.randrange(1, 6)))
        replies.append(reply)
        elsewhere.append(reply)

    # Notifications, in no particular order yet: (time, type, account, status).
    events = []
    for kind, plan in (("favourite", FAVOURITES), ("reblog", REBLOGS)):
        for key in sorted(plan, key=lambda k: int(k[1:])):
            times = plan[key]
            for account, when in zip(rng.sample(FANS, len(times)), times):
                events.append((at(when), kind, ACCOUNTS[account], yours[key]))
    for acct, when in FOLLOWS:
        events.append((at(when), "follow", ACCOUNTS[acct], None))
    for reply in replies:
        events.append((parse(reply["created_at"]) + timedelta(milliseconds=rng.randrange(200, 900)), "mention", reply["account"], reply))
    poll = yours["P7"]["poll"]
    events.append((parse(poll["expires_at"]) + timedelta(seconds=rng.randrange(1, 30)), "poll", YOU, yours["P7"]))
    events.append((parse(update_target["edited_at"]) + timedelta(milliseconds=rng.randrange(300, 2000)), "update", pete, update_target))

    events.sort(key=lambda event: event[0])
    notifications = []
    next_id = FIRST_NOTIFICATION_ID
    for moment, kind, account, about in events:
        assert about is None or moment > parse(about["created_at"]), f"{kind} before its post"
        notification = {"id": str(next_id), "type": kind, "created_at": iso(moment), "account": account}
        if about is not None:
            notification["status"] = about
        notifications.append(notification)
        next_id += rng.randrange(3, 60)
    notifications.reverse()  # newest first

    elsewhere.sort(key=lambda entry: (entry["created_at"], int(entry["id"])), reverse=True)
    return elsewhere, notifications


def parse(text):
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ")


def groups(notifications):
    """The number of groups under Mastodon 4.3's rule: favourites and boosts of one post and
    follows share the group whose first hour bucket is less than 12 hours before theirs."""
    previous, keys = {}, set()
    for notification in sorted(notifications, key=lambda n: (n["created_at"], int(n["id"]))):
        kind = notification["type"]
        if kind in ("favourite", "reblog"):
            prefix = f"{kind}-{notification['status']['id']}"
        elif kind == "follow":
            prefix = "follow"
        else:
            keys.add(f"ungrouped-{notification['id']}")
            continue
        bucket = epoch_ms(parse(notification["created_at"])) // 3_600_000
        if prefix in previous and bucket < previous[prefix] + 12:
            bucket = previous[prefix]
        previous[prefix] = bucket
        keys.add(f"{prefix}-{bucket}")
    return len(keys)


def check(elsewhere, notifications):
    kemi_posts = [s for s in elsewhere if s["account"]["id"] == kemi["id"]]
    birds = [s for s in elsewhere if any(t["name"] == "birds" for t in s["tags"])]
    yours = [s for s in elsewhere if s["account"]["id"] == YOU_ID]
    replies = [s for s in elsewhere if s["in_reply_to_account_id"] == YOU_ID]
    assert len(kemi_posts) >= 26 and len(birds) >= 20 and len(yours) == 16 and len(replies) == 6
    assert all(s["created_at"] < iso(NOW) for s in elsewhere)
    assert len(notifications) >= 60 and groups(notifications) >= 28
    assert all("2026-11-12" <= n["created_at"] <= "2026-11-21T17:00:00.000Z" for n in notifications)
    for post in yours:
        about = [n for n in notifications if n.get("status", {}).get("id") == post["id"]]
        assert post["favourites_count"] >= sum(n["type"] == "favourite" for n in about)
        assert post["reblogs_count"] >= sum(n["type"] == "reblog" for n in about)
    return len(kemi_posts), len(birds), len(yours), len(replies)


def write(name, value):
    (TIMELINE / name).write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main():
    elsewhere, notifications = build()
    kemi_count, birds_count, your_count, reply_count = check(elsewhere, notifications)
    write(ELSEWHERE, elsewhere)
    write(NOTIFICATIONS, notifications)
    print(
        f"{ELSEWHERE}: {len(elsewhere)} statuses ({kemi_count} by Kemi, {birds_count} #birds, {your_count} by you, "
        f"{reply_count} replies to you); {NOTIFICATIONS}: {len(notifications)} notifications in "
        f"{groups(notifications)} groups",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
