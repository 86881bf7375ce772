"""Why a file of an imported folder is not read as a session (``replay.not-read.*``):
each agent's side files, index and history files, archives and twins, said after the
file in the CLI's note and the page's list (``layouts.Claim.why``). Split from
``logs.py`` to keep each catalogue module readable whole.
"""

MESSAGES: dict[str, tuple[str, str]] = {
    # Several --log paths (cli.log_paths): a file given twice, or beside a folder that
    # holds it, is read once; the CLI's note says so of the later path.
    "replay.read-once": (
        "--log {path} gives {n} of the files --log {earlier} gave: each is read once",
        "--log {path} 给出的文件中有 {n} 个已由 --log {earlier} 给出:每个只读取一次",
    ),
    # Not only files no agent writes: the folder's plan also leaves out a file whose
    # sessions another file holds (a Codex CLI .jsonl.zst beside its .jsonl, Copilot
    # CLI's events.jsonl beside its session store), which "not session logs" miscalled.
    # Why a folder's file is not read as a session (layouts.Claim.why), said after the
    # file (FolderPlan.not_read_groups): the CLI's note and the page's.
    "replay.not-read.unknown": (
        "no agent we read writes such a file as a session",
        "我们读取的代理都不把这种文件写成会话",
    ),
    "replay.not-read.archive": (
        "an archive or a compressed file, by its name: unpack it and give the files inside; "
        "Codex CLI's .jsonl.zst is read as it is",
        "按其名称是归档或压缩文件:请先解压,再提供其中的文件;Codex CLI 的 .jsonl.zst 可直接读取",
    ),
    "replay.not-read.codex-twin": (
        "a compressed copy of the Codex CLI rollout beside it, which is read instead",
        "旁边 Codex CLI 会话记录的压缩副本,改为读取那个文件",
    ),
    "replay.not-read.goose-imported": (
        "a Goose session from before its database, which Goose imported into sessions.db beside it",
        "Goose 改用数据库之前的会话,Goose 已将其导入旁边的 sessions.db",
    ),
    "replay.not-read.kimi-context": (
        "Kimi CLI's context for the model; the usage is in the wire.jsonl beside it",
        "Kimi CLI 给模型的上下文;用量在旁边的 wire.jsonl 中",
    ),
    "replay.not-read.copilot-workspace": (
        "Copilot CLI's note of a session's folder and summary, beside its events.jsonl; it "
        "holds no usage",
        "Copilot CLI 对会话所在文件夹与摘要的记录,位于其 events.jsonl 旁边;其中没有用量",
    ),
    "replay.not-read.sqlite-beside": (
        "SQLite's own file beside a database, which the page reads from its bytes alone",
        "数据库旁边 SQLite 自己的文件,页面只从数据库自身的字节读取",
    ),
    "replay.not-read.codex-index": (
        "Codex CLI's index of its threads' names, beside its sessions; it holds no usage",
        "Codex CLI 对其会话名称的索引,位于其会话旁边;其中没有用量",
    ),
    "replay.not-read.codex-history": (
        "Codex CLI's history of the prompts typed, beside its sessions; it holds no usage",
        "Codex CLI 输入过的提示的历史,位于其会话旁边;其中没有用量",
    ),
    "replay.not-read.kimi-state": (
        "Kimi's state of a session (its title, work folder and settings), beside its wire, "
        "which is read; it holds no usage",
        "Kimi 对会话状态的记录(标题、工作文件夹与设置),位于其 wire 旁边,wire 会被读取;其中没有用量",
    ),
    "replay.not-read.kimi-code-config": (
        "Kimi Code's configuration (its providers and model aliases), beside its sessions; "
        "it holds no usage, and each record names its model",
        "Kimi Code 的配置(其提供方与模型别名),位于其会话旁边;其中没有用量,每条记录都写有其模型",
    ),
    "replay.not-read.kimi-index": (
        "Kimi Code's index of its sessions' work folders, beside its sessions; it holds no usage",
        "Kimi Code 对其会话工作文件夹的索引,位于其会话旁边;其中没有用量",
    ),
    "replay.not-read.claude-history": (
        "Claude Code's history of the prompts typed, beside its projects; it holds no usage",
        "Claude Code 输入过的提示的历史,位于其 projects 旁边;其中没有用量",
    ),
    "replay.not-read.claude-index": (
        "Claude Code's index of a project's sessions (each one's first prompt, title and "
        "times), beside them; it holds no usage",
        "Claude Code 对一个项目中各会话的索引(首条提示、标题与时间),位于会话旁边;其中没有用量",
    ),
    "replay.not-read.opencode-session": (
        "OpenCode's note of a session's title and folder; its messages, beside it in "
        "storage/message/, are read",
        "OpenCode 对会话标题与文件夹的记录;其消息位于 storage/message/,会被读取",
    ),
    "replay.not-read.claude-meta": (
        "Claude Code's note of what a subagent ran (its type and description), beside "
        "its file, which is read",
        "Claude Code 对子代理运行内容的说明(类型与描述),其旁边的文件会被读取",
    ),
    "replay.not-read.cline-history": (
        "Cline's copy of the messages sent to the model; the task's usage is read from "
        "the ui_messages.json beside it",
        "Cline 发送给模型的消息副本;任务的用量从其旁边的 ui_messages.json 读取",
    ),
    "replay.not-read.cline-manifest": (
        "Cline's manifest of a session (its model and title), beside its messages file, "
        "which is read; it holds no usage",
        "Cline 对会话的清单(模型与标题),位于其消息文件旁边,消息文件会被读取;其中没有用量",
    ),
    "replay.not-read.cline-compaction": (
        "Cline's record of a compaction (the messages it replaced), beside the session's "
        "messages file; it holds no usage, and Cline's compactions are not read yet",
        "Cline 对一次压缩的记录(被替换的消息),位于会话消息文件旁边;其中没有用量,且尚未读取 Cline 的压缩",
    ),
    "replay.not-read.cline-task-history": (
        "Cline's list of its tasks (each one's prompt, time and totals, which the task's "
        "own ui_messages.json holds), beside its tasks, which are read from their own files",
        "Cline 的任务列表(每个任务的提示、时间与合计,任务自己的 ui_messages.json 中也有),"
        "位于其任务旁边,任务从其自己的文件读取",
    ),
    "replay.not-read.cline-hooks": (
        "Cline's log of the hooks a session ran, beside its messages file; it holds no usage",
        "Cline 记录会话所运行钩子的日志,位于其消息文件旁边;其中没有用量",
    ),
    "replay.not-read.gemini-logs": (
        "Gemini CLI's record of the prompts typed in a project, which holds no usage",
        "Gemini CLI 记录项目中所输入提示的文件,其中没有用量",
    ),
    "replay.not-read.gemini-project": (
        "a file of Gemini CLI's project folder beside its chats (the project's path, "
        "shell history, checkpoints, plans, memory), which holds no session's usage",
        "Gemini CLI 项目文件夹中与 chats 并列的文件(项目路径、shell 历史、检查点、计划、"
        "记忆),其中没有会话的用量",
    ),
    "replay.not-read.qwen-home": (
        "a file of Qwen Code's home (~/.qwen: its settings, commands, installation id and "
        "sign-in), which holds no session's usage",
        "Qwen Code 主目录(~/.qwen:设置、命令、安装 id 与登录信息)中的文件,其中没有会话的用量",
    ),
    "replay.not-read.droid-home": (
        "a file of Droid's home (~/.factory: its logs, prompt history, MCP servers, custom "
        "droids and commands), which holds no session's usage",
        "Droid 主目录(~/.factory:日志、提示历史、MCP 服务器、自定义 droid 与命令)中的文件,"
        "其中没有会话的用量",
    ),
    "replay.not-read.pi-home": (
        "a file of pi's home (~/.pi/agent: settings, auth, models, prompts, extensions, "
        "themes, tools), which holds no session's usage",
        "pi 主目录(~/.pi/agent:设置、认证、模型、提示、扩展、主题、工具)中的文件,"
        "其中没有会话的用量",
    ),
    "replay.not-read.opencode-home": (
        "a file of OpenCode's (or Kilo CLI's) data folder (auth, logs, binaries, snapshots, "
        "tool output, project, diff and todo records), which holds no session's usage",
        "OpenCode(或 Kilo CLI)数据文件夹中的文件(认证、日志、程序、快照、工具输出、"
        "项目、差异与待办记录),其中没有会话的用量",
    ),
    "replay.not-read.goose-home": (
        "a file of Goose's folders beside its sessions (its configuration, secrets, "
        "permissions, schedules, scheduled recipes, projects list, local models, logs), "
        "which holds no session's usage",
        "Goose 在其会话旁边的文件夹中的文件(配置、密钥、权限、计划任务、计划的配方、项目列表、"
        "本地模型、日志),其中没有会话的用量",
    ),
    "replay.not-read.cline-home": (
        "a file of Cline's (or Roo Code's, Kilo Code's) VS Code storage beside its tasks "
        "(settings, cache, state, checkpoints), which holds no session's usage",
        "Cline(或 Roo Code、Kilo Code)在 VS Code 存储中、任务旁的文件(设置、缓存、状态、"
        "检查点),其中没有会话的用量",
    ),
    "replay.not-read.qwen-workflow-run": (
        "Qwen Code's journal of an earlier workflow run: each agent's tokens as one "
        "total of no model, not priced, so Qwen Code's total is unknown",
        "Qwen Code 早期工作流运行的日志:每个代理的 token 只有一个总数且无模型,无法计价,"
        "因此 Qwen Code 的总计未知",
    ),
    "replay.not-read.qwen-workflow-run-record": (
        "Qwen Code's record of a workflow run of its earlier engine (its status and the "
        "tokens it spent, one total), beside the run's journal",
        "Qwen Code 早期工作流引擎对一次运行的记录(其状态与所用 token 的总数),位于该运行的日志旁边",
    ),
    "replay.not-read.qwen-workflow-journal": (
        "Qwen Code's journal of a workflow run (the agents it dispatched and their "
        "results, for resuming it), which holds no usage",
        "Qwen Code 工作流运行的日志(它派出的代理及其结果,用于恢复运行),其中没有用量",
    ),
    "replay.not-read.claude-journal": (
        "a Claude Code workflow's journal, which holds no request",
        "Claude Code 工作流的日志,其中没有请求",
    ),
}
