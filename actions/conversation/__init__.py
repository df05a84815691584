"""What a conversation carries from one message to the next: the facts said so far, the last question answered
and the last answer. Plain functions over text and entity lists (no Rasa), read by the actions.

A message is kept as a ``Said``: its text and its entities (offsets into the text). A fact ("we have 4 dogs",
"he bit her on March 3") is the clause of a message that holds it, with its kinds ("animals", "incident"); a later
question on a topic that uses such a fact is answered as if the resident had said it again, in their own words,
before the question (actions/conversation.yml `uses`). A follow-up ("and if she's spayed?", "what about 16?",
"how long?") is the last question again with the new message's values put in place of the old ones and its
remaining words added, answered on the last question's topic.

By part: said.py (a message kept as text and entities; the readings' words in conversation.yml), facts.py (the
facts a message states and their acknowledgement), follow_ups.py (does a message go on from the last question?),
merging.py (a follow-up read on the last question).
"""
from .facts import *  # noqa: F401,F403
from .follow_ups import *  # noqa: F401,F403
from .merging import *  # noqa: F401,F403
from .said import *  # noqa: F401,F403
