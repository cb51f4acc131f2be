"""The verifier's bounded memos, which a server's threads share."""

from bgrid.verifier.memo import forget_oldest


def test_forget_oldest_drops_the_first_inserted_item():
    memo = {"a": 1, "b": 2}
    forget_oldest(memo)
    assert memo == {"b": 2}


def test_forget_oldest_on_a_memo_another_thread_emptied_does_nothing():
    memo: dict = {}
    forget_oldest(memo)
    assert memo == {}
