//! The demo's scripted lines, one table per language.
//!
//! The English table is the demo's original wording, which tests and the
//! end-to-end suite quote; the Japanese one is Yui speaking casually
//! (だよ/ね), the Korean one polite-friendly 해요체 throughout. A line that
//! quotes the user keeps their words verbatim.

/// Every line the demo says (or writes as reasoning).
pub(crate) struct Lines {
    /// The remark on a background turn (nobody typed anything).
    pub(crate) background: &'static str,
    /// Reasoning of a background turn.
    pub(crate) background_why: &'static str,
    /// The greeting's first sentence.
    pub(crate) hello: &'static str,
    /// The greeting's note that the lines are scripted.
    pub(crate) mock_note: &'static str,
    /// The greeting's hint at what to try.
    pub(crate) hint: &'static str,
    /// Reasoning of a greeting.
    pub(crate) hello_why: &'static str,
    /// Reasoning of a greeting that asks the time (the time given).
    pub(crate) hello_clock_why: fn(&str) -> String,
    /// The clock line (the time given).
    pub(crate) clock: fn(&str) -> String,
    /// What follows the clock line.
    pub(crate) clock_note: &'static str,
    /// Reasoning of a time question (the time given).
    pub(crate) clock_why: fn(&str) -> String,
    /// The spoken failure: the error, then the retry hint.
    pub(crate) fail: [&'static str; 2],
    /// Reasoning of a failing turn.
    pub(crate) fail_why: &'static str,
    /// The echo (the utterance given, verbatim).
    pub(crate) said: fn(&str) -> String,
    /// The echo's follow-up when the user is sad or tired.
    pub(crate) sad: &'static str,
    /// The echo's follow-up when the user is angry.
    pub(crate) angry: &'static str,
    /// The echo's follow-up to a question.
    pub(crate) puzzled: &'static str,
    /// The echo's follow-up otherwise.
    pub(crate) listening: &'static str,
    /// Reasoning of an echo (the utterance and the mood's emotion id given).
    pub(crate) echo_why: fn(&str, &str) -> String,
    /// The promise that closes a task turn.
    pub(crate) task: &'static str,
    /// Appended to a task turn's reasoning (its leading gap included).
    pub(crate) task_why: &'static str,
    /// Said first when a picture (the screenshot) rode with the turn.
    pub(crate) sees_screen: &'static str,
    /// Title of the delegation a push connection's first turn starts.
    pub(crate) first_task: &'static str,
    /// The report when a delegation finishes (its title given).
    pub(crate) task_done: fn(&str) -> String,
    /// What follows the report.
    pub(crate) all_fine: &'static str,
    /// The answer to a request transport's follow-up.
    pub(crate) follow_up: &'static str,
    /// `agent_chat` reasoning: the session's last utterance (given), with
    /// its trailing gap.
    pub(crate) earlier: fn(&str) -> String,
    /// `agent_chat` reasoning: the attachments' names (given, joined), with
    /// its trailing gap.
    pub(crate) attached: fn(&str) -> String,
    /// `agent_chat` reasoning of a request to see files.
    pub(crate) files_why: &'static str,
    /// `agent_chat`: the pretend files were listed.
    pub(crate) files_shown: &'static str,
    /// `agent_chat`: the user denied the listing.
    pub(crate) files_declined: &'static str,
    /// `agent_chat`: the approval went unanswered.
    pub(crate) files_unanswered: &'static str,
}

/// English, the demo's original wording (tests quote it: keep it as is).
pub(crate) static EN: Lines = Lines {
    background: "Mm? I'm just keeping you company.",
    background_why: "Nobody typed anything, so a quiet remark is enough.",
    hello: "Hi! I'm Yui.",
    mock_note: "This is the mock backend, so my lines are scripted.",
    hint: "Ask me the time, or give me a task to remember!",
    hello_why: "The user greeted me. A warm hello with a wave fits, then a hint at what this demo can do.",
    hello_clock_why: |now| format!("The user greeted me and asked the time. A wave, then the clock tool's answer: {now}."),
    clock: |now| format!("It's {now}."),
    clock_note: "That's what the clock on my side says, anyway.",
    clock_why: |now| format!("The user asked about the time. The clock tool says {now}, so I'll say that."),
    fail: ["Sorry, that didn't work: the provider hit a rate limit.", "Let's try again in a moment."],
    fail_why: "The user asked me to fail, so this turn reports a provider error.",
    said: |short| format!("You said: \"{short}\"."),
    sad: "That sounds hard. Let's take a short break together.",
    angry: "Grr, that would make me angry too!",
    puzzled: "Good question! I'm only a mock, so I can't really answer it.",
    listening: "I'm only a mock backend, but I'm listening.",
    echo_why: |short, mood| format!("The user wrote \"{short}\". I can't really think, so I'll echo it back and react ({mood})."),
    task: "I'll put that on my list and report back.",
    task_why: " It sounds like a task, so I'll hand it to a background worker.",
    sees_screen: "I can see your screen.",
    first_task: "Tidy up the notes from this chat",
    task_done: |title| format!("Quick update: I finished \"{title}\"."),
    all_fine: "Everything looks fine.",
    follow_up: "Okay.",
    earlier: |last| format!("Earlier in this session you said \"{last}\". "),
    attached: |names| format!("Attached: {names}. "),
    files_why: "The user wants to see files. list_files needs their permission first, so I'll ask.",
    files_shown: "I peeked into my demo folder: notes.txt, todo.md and yui.png. It's only a pretend folder, so nothing of yours was touched.",
    files_declined: "Okay, I won't look. Just ask again if you change your mind.",
    files_unanswered: "I didn't hear back, so I left the files alone. Ask me again any time!",
};

/// Japanese: Yui's casual, warm voice.
pub(crate) static JA: Lines = Lines {
    background: "ん？ただそばにいるだけだよ。",
    background_why: "誰も何も書いていないから、ひとことだけ静かに言おう。",
    hello: "こんにちは！ユイだよ。",
    mock_note: "ここはデモ用のバックエンドだから、わたしのセリフは決まってるんだ。",
    hint: "時間を聞いてみたり、覚えておいてほしいことを頼んでみてね！",
    hello_why: "ユーザーが挨拶してくれた。手を振って元気に返して、このデモでできることを少し案内しよう。",
    hello_clock_why: |now| format!("ユーザーが挨拶して、時間も聞いてきた。手を振ってから、時計ツールの答えを伝えよう：{now}。"),
    clock: |now| format!("今は{now}だよ。"),
    clock_note: "少なくとも、わたしの時計ではそうなってるよ。",
    clock_why: |now| format!("ユーザーが時間を聞いてきた。時計ツールによると{now}だから、そう伝えよう。"),
    fail: ["ごめんね、うまくいかなかった。APIの利用制限に引っかかっちゃったみたい。", "少ししたら、もう一回やってみよう。"],
    fail_why: "ユーザーに失敗してって頼まれたから、今回はプロバイダーのエラーを伝える。",
    said: |short| format!("「{short}」って言ったね。"),
    sad: "それは大変だったね。一緒にちょっと休憩しよう。",
    angry: "むむっ、それはわたしでも怒っちゃうよ！",
    puzzled: "いい質問だね！でもわたしはただのデモだから、ちゃんとは答えられないんだ。",
    listening: "ただのデモだけど、ちゃんと聞いてるよ。",
    echo_why: |short, mood| format!("ユーザーは「{short}」と書いた。本当に考えることはできないから、そのまま繰り返して反応しよう（気分：{}）。", ja_mood(mood)),
    task: "やることリストに入れておくね。終わったら報告するよ。",
    task_why: "タスクみたいだから、バックグラウンドの作業係に任せよう。",
    sees_screen: "画面、ちゃんと見えてるよ。",
    first_task: "このチャットのメモを整理する",
    task_done: |title| format!("ちょっと報告！「{title}」、終わったよ。"),
    all_fine: "全部問題なさそうだよ。",
    follow_up: "うん、わかった。",
    earlier: |last| format!("このセッションの少し前に「{last}」って言ってたね。"),
    attached: |names| format!("添付：{names}。"),
    files_why: "ユーザーはファイルを見たいみたい。list_files は先に許可が必要だから、聞いてみよう。",
    files_shown: "デモ用のフォルダをのぞいてみたよ。notes.txt、todo.md、yui.png があった。ただの架空のフォルダだから、あなたのファイルには何も触ってないよ。",
    files_declined: "わかった、見ないでおくね。気が変わったら、また言ってね。",
    files_unanswered: "返事がなかったから、ファイルはそのままにしておいたよ。いつでもまた聞いてね！",
};

/// Korean: friendly 해요체 throughout.
pub(crate) static KO: Lines = Lines {
    background: "음? 그냥 옆에 있는 거예요.",
    background_why: "아무도 아무것도 쓰지 않았으니 조용히 한마디만 할게요.",
    hello: "안녕하세요! 저는 유이예요.",
    mock_note: "여기는 데모용 백엔드라서 제 대사는 정해져 있어요.",
    hint: "시간을 물어보거나, 기억해 둘 일을 맡겨 주세요!",
    hello_why: "사용자가 인사해 줬어요. 손을 흔들며 반갑게 인사하고, 이 데모로 할 수 있는 걸 살짝 알려 줄게요.",
    hello_clock_why: |now| format!("사용자가 인사하면서 시간도 물어봤어요. 손을 흔들고, 시계 도구의 답을 알려 줄게요: {now}."),
    clock: |now| format!("지금은 {now}이에요."),
    clock_note: "적어도 제 쪽 시계로는 그래요.",
    clock_why: |now| format!("사용자가 시간을 물어봤어요. 시계 도구의 답은 {now}. 그대로 알려 줄게요."),
    fail: ["미안해요, 잘 안 됐어요. API 사용량 제한에 걸렸나 봐요.", "조금 있다가 다시 해 봐요."],
    fail_why: "사용자가 실패해 달라고 했으니, 이번에는 제공자 오류를 알려 줄게요.",
    said: |short| format!("\"{short}\"라고 했네요."),
    sad: "많이 힘들었겠어요. 같이 잠깐 쉬어요.",
    angry: "으으, 저라도 화났을 거예요!",
    puzzled: "좋은 질문이에요! 그런데 저는 데모라서 제대로 답해 드릴 수는 없어요.",
    listening: "그냥 데모지만, 잘 듣고 있어요.",
    echo_why: |short, mood| format!("사용자가 \"{short}\"라고 썼어요. 제대로 생각할 수는 없으니 그대로 따라 말하고 반응할게요(기분: {}).", ko_mood(mood)),
    task: "할 일 목록에 넣어 둘게요. 끝나면 알려 드릴게요.",
    task_why: " 할 일 같으니 백그라운드 작업자에게 맡길게요.",
    sees_screen: "화면이 보여요.",
    first_task: "이 대화의 메모 정리하기",
    task_done: |title| format!("잠깐 알려 드릴게요. \"{title}\", 다 끝냈어요."),
    all_fine: "다 괜찮아 보여요.",
    follow_up: "네, 알겠어요.",
    earlier: |last| format!("이 세션에서 아까 \"{last}\"라고 했죠. "),
    attached: |names| format!("첨부: {names}. "),
    files_why: "사용자가 파일을 보고 싶어 해요. list_files는 먼저 허락이 필요하니까 물어볼게요.",
    files_shown: "데모 폴더를 살짝 들여다봤어요. notes.txt, todo.md, yui.png 파일이 있었어요. 가상의 폴더라서 실제 파일은 하나도 건드리지 않았어요.",
    files_declined: "알겠어요, 안 볼게요. 마음이 바뀌면 언제든 다시 말해 주세요.",
    files_unanswered: "답이 없어서 파일은 그대로 뒀어요. 언제든 다시 물어봐 주세요!",
};

/// A mood (emotion id) as the Japanese reasoning names it.
fn ja_mood(mood: &str) -> &'static str {
    match mood {
        "happy" => "にこにこ",
        "sad" => "しょんぼり",
        "angry" => "ぷんぷん",
        "surprised" => "びっくり",
        "relaxed" => "のんびり",
        _ => "ふつう",
    }
}

/// A mood (emotion id) as the Korean reasoning names it.
fn ko_mood(mood: &str) -> &'static str {
    match mood {
        "happy" => "기쁨",
        "sad" => "시무룩",
        "angry" => "화남",
        "surprised" => "놀람",
        "relaxed" => "느긋함",
        _ => "보통",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_lines_keep_the_words_verbatim() {
        let words = "a \"quoted\" {braced} 言葉 말";
        for lines in [&EN, &JA, &KO] {
            for line in [(lines.said)(words), (lines.echo_why)(words, "sad"), (lines.task_done)(words), (lines.earlier)(words)] {
                assert!(line.contains(words), "{line}");
            }
            assert!((lines.clock)("09:41").contains("09:41") && (lines.clock_why)("09:41").contains("09:41"));
        }
        assert_eq!((JA.said)("元気？"), "「元気？」って言ったね。");
        assert_eq!((KO.said)("뭐 해?"), "\"뭐 해?\"라고 했네요.");
    }
}
