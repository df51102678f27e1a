// UI text in Chinese and English. Default follows the browser; the choice is remembered.
const zh = {
  skip: '跳到主要内容', menu: '菜单', nav_main: '主导航', nav_chat: '对话', nav_learn: '学习', nav_kb: '知识库', nav_console: '客服台',
  sign_in: '登录', sign_out: '退出登录', signed_in_as: '已登录：', signed_out: '已退出登录', api_key: 'API 密钥',
  api_key_help: '粘贴你的 API 密钥（演示：demo-alice 顾客，demo-agent 客服）。密钥只保存在本浏览器。', api_key_required: '请输入 API 密钥', bad_key: '密钥无效',
  role_customer: '顾客', role_agent: '客服', role_admin: '管理员', role_anonymous: '访客', close: '关闭',
  threads: '会话', new_chat: '新对话', rename: '重命名', renamed: '已重命名', untitled: '未命名会话', no_threads: '还没有会话。', threads_unavailable: '暂时无法加载会话列表。',
  conversation: '对话记录', message: '消息', ask_placeholder: '提问、学习一个主题，或处理订单…（Enter 发送，Shift+Enter 换行）', send: '发送',
  empty_chat_title: '有什么可以帮你？', empty_chat_body: '回答都带编号引用，点开可查看原文；右侧实时显示决策过程。', examples: '示例问题',
  thread_not_found: '找不到这个会话', thread_answering: '这个会话的第一条回答还在生成，稍候即显示。', thread_empty: '这个会话还没有保存的消息。', loading: '加载中…', thinking: '思考中', answer: '回答', source: '来源', sources: '引用来源', page_n: '第 {n} 页', slide_n: '第 {n} 张幻灯片', ocr_mark: 'OCR 识别，请核对原图', kb_pages: '页数', kb_tables: '表格', kb_ocr_pages: 'OCR 页', kb_warnings: '解析提示', model_worded: '这句由模型转述，已与来源原文核对',
  trace: '决策过程', tier: '分类层级', tier_rule: '规则', tier_fuzzy: '模糊', tier_semantic: '语义', tier_llm: 'LLM', tier_source: '输入来源', tier_resume: '恢复', tier_none: '—',
  tr_intent: '意图', tr_path: '路径', tr_nodes: '节点', tr_reasoning: '推理', tr_retrieval: '检索', tr_tool: '工具', tr_verdict: '核查', tr_review: '待人工', tr_document: '文档', tr_error: '错误', tr_done: '完成',
  attempt: '第', args: '参数', result: '结果', running: '执行中…', interrupted: '等待确认',
  verdict_confirmed: '已证实', verdict_uncertain: '不确定', verdict_insufficient: '依据不足', verdict_contradicted: '有矛盾',
  kind_refund_confirmation: '退款确认', kind_refund_approval: '退款审批', kind_handoff: '人工客服',
  confirm_refund: '确认退款', cancel_refund: '不用了', order: '订单', amount: '金额', reason: '原因', needs_agent_approval: '金额较大，确认后还需客服审批。',
  waiting_agent_approval: '等待客服审批…', handed_to_human: '已转接人工客服', handoff_hint: '客服回复会直接出现在这里，无需刷新。',
  open_document: '打开文档', ready: '已完成', generating: '生成中…', quick_replies: '快捷回复',
  error_title: '出错了', retry: '重试', busy: '这个会话正在回答上一条消息，请稍候。',
  server_down: '无法连接服务器', server_down_body: '服务器可能已停止或正在重启。恢复后页面会自动重连。', server_down_banner: '与服务器的连接已断开，正在重试…', reconnected: '已重新连接',
  stream_broken: '回答的连接中断了，正在重连并恢复会话…', stream_resumed: '已重新连接，会话已恢复', stream_resumed_incomplete: '连接中断时回答尚未完成。',
  source_unavailable: '无法打开原文', chars: '字符',
  toc: '目录', breadcrumbs: '路径', history: '版本历史', mark_learned: '标记为已学', learned: '已学', level_beginner: '入门', level_intermediate: '进阶', level_advanced: '高级',
  follow_ups: '继续探索', entities: '相关术语', related_docs: '相关文档', parent_doc: '上级文档', all_documents: '全部文档', activity: 'AI 动态', none: '暂无',
  comments: '批注', no_comments: '选中文字即可批注，AI 会据此优化该节。', orphaned_comments: '失去锚点的批注', comment_on_selection: '对选中文字批注', comment: '批注',
  comment_placeholder: '哪里不清楚？比如：太简单了，请详细一点', your_comment: '你的批注', improve_with_ai: '让 AI 优化', cancel: '取消',
  status_applied: '已采纳', status_answered: '已回答', status_declined: '未能采纳', status_open: '待处理', anchor_anchored: '已锚定', anchor_moved: '已移动', anchor_fuzzy: '近似锚定', anchor_orphaned: '失去锚点',
  updated_to: '文档已更新为', show_diff: '查看差异', from: '从', to: '到', single_version: '只有一个版本。', diff: '版本差异', added: '新增', removed: '删除', no_changes: '没有差异。',
  doc_not_found: '找不到这个文档', doc_private_body: '学习文档只有它的主人能看到：没有登录时，文档属于写下它的那个浏览器；用你的 API 密钥登录后，你的文档在任何浏览器都能打开。也可能这个文档已被删除。',
  start_topic: '开始学习一个主题', topic: '主题', topic_placeholder: '例如：CNC维护', start_learning: '生成文档', documents: '学习文档', no_documents: '还没有文档，输入一个主题开始吧。',
  learning_paths: '学习路径', goal: '目标', goal_placeholder: '例如：成为合格的CNC操作工', plan_path: '规划路径', no_paths: '还没有学习路径。', progress: '进度', total_minutes: '预计分钟',
  learned_topics: '已学主题', nothing_learned: '还没有标记已学的主题。',
  upload: '上传文件', collection: '集合', domain: '领域', domain_general: '通用', domain_technical: '技术', domain_hr: '人事', domain_product: '产品', domain_policy: '制度',
  drop_files: '拖放文件到这里，或点击选择', drop_help: '支持 Markdown、TXT、HTML、PDF、DOCX、CSV，单个文件 ≤ 20 MB',
  uploading: '上传中…', ingesting: '解析与向量化中…', chunks: '个片段', unchanged: '内容未变', failed: '失败', upload_forbidden: '修改知识库需要编辑或管理员账号，请先用对应的 API key 登录',
  try_question: '试一个问题', kb_query_placeholder: '例如：零件A的公差是多少？', search: '检索', passages: '段', fused_score: '融合分数', no_results: '没有检索到内容。',
  ret_keyword: '关键词', ret_dense: '向量', ret_sql: 'SQL', kb_documents: '已收录文档', flag_instructions: '含疑似指令，待审核', collections: '集合', file: '文件', kb_empty: '知识库是空的，上传一些文件吧。',
  console_needs_agent: '客服台需要客服账号：请用客服 API 密钥登录（演示：demo-agent）。', live_updates: '● 实时更新', queue: '队列',
  tab_handoffs: '人工接管', tab_approvals: '退款审批', tab_reviews: '答案复核',
  no_reviews: '没有待复核的答案。', no_approvals: '没有待审批的退款。', no_handoffs: '没有待处理的人工会话。',
  evidence: '证据', approve: '批准', edit: '修改', reject: '驳回', edited_answer: '修改后的答案', save_edit: '保存修改',
  review_approve: '已批准', review_edit: '已修改', review_reject: '已驳回', note: '备注（可选）', customer: '顾客',
  wants: '诉求', mood: '情绪', facts: '已知信息', steps_tried: '已尝试', reply_as_human: '以人工身份回复', reply_placeholder: '输入回复，顾客会在对话中看到',
  send_reply: '发送回复', return_to_assistant: '交还给智能助手', reply_sent: '回复已送达', returned: '已交还给助手',
  sent_for_review: '这个回答已提交人工复核，复核结果会更新在这里。', kind_answer_review: '人工复核',
  path_insufficient: '知识库里关于这个目标的内容不足，无法规划路径。可以先学习这些相近主题：',
  hs_open: '待接入', hs_answered: '已回复', hs_returned: '已交还',
};
const en = {
  skip: 'Skip to main content', menu: 'Menu', nav_main: 'Main navigation', nav_chat: 'Chat', nav_learn: 'Learn', nav_kb: 'Knowledge base', nav_console: 'Console',
  sign_in: 'Sign in', sign_out: 'Sign out', signed_in_as: 'Signed in as', signed_out: 'Signed out', api_key: 'API key',
  api_key_help: 'Paste your API key (demo: demo-alice is a customer, demo-agent an agent). It is kept in this browser only.', api_key_required: 'Enter an API key', bad_key: 'Unknown API key',
  role_customer: 'customer', role_agent: 'agent', role_admin: 'admin', role_anonymous: 'guest', close: 'Close',
  threads: 'Threads', new_chat: 'New chat', rename: 'Rename', renamed: 'Renamed', untitled: 'Untitled thread', no_threads: 'No threads yet.', threads_unavailable: 'Threads are unavailable right now.',
  conversation: 'Conversation', message: 'Message', ask_placeholder: 'Ask, learn a topic, or handle an order… (Enter sends, Shift+Enter for a new line)', send: 'Send',
  empty_chat_title: 'How can I help?', empty_chat_body: 'Answers carry numbered citations you can open; the decision trace shows live beside each answer.', examples: 'Examples',
  thread_not_found: 'Thread not found', thread_answering: 'The first answer of this thread is still being written; it shows here in a moment.', thread_empty: 'This thread has no stored messages yet.', loading: 'Loading…', thinking: 'Thinking', answer: 'Answer', source: 'Source', sources: 'Sources', page_n: 'p. {n}', slide_n: 'slide {n}', ocr_mark: 'read by OCR: check the image', kb_pages: 'Pages', kb_tables: 'Tables', kb_ocr_pages: 'OCR pages', kb_warnings: 'Parse warnings', model_worded: 'Worded by the model and checked against the source quote',
  trace: 'Trace', tier: 'Tier', tier_rule: 'rule', tier_fuzzy: 'fuzzy', tier_semantic: 'semantic', tier_llm: 'LLM', tier_source: 'source', tier_resume: 'resume', tier_none: '—',
  tr_intent: 'Intent', tr_path: 'Path', tr_nodes: 'Nodes', tr_reasoning: 'Reasoning', tr_retrieval: 'Retrieved', tr_tool: 'Tool', tr_verdict: 'Verdict', tr_review: 'Needs a person', tr_document: 'Document', tr_error: 'Error', tr_done: 'Done',
  attempt: 'attempt', args: 'arguments', result: 'result', running: 'running…', interrupted: 'waiting',
  verdict_confirmed: 'Confirmed', verdict_uncertain: 'Uncertain', verdict_insufficient: 'Insufficient', verdict_contradicted: 'Contradicted',
  kind_refund_confirmation: 'Confirm refund', kind_refund_approval: 'Refund approval', kind_handoff: 'Human agent',
  confirm_refund: 'Confirm refund', cancel_refund: 'Cancel', order: 'Order', amount: 'Amount', reason: 'Reason', needs_agent_approval: 'A large amount: an agent approves it after you confirm.',
  waiting_agent_approval: 'Waiting for an agent to approve…', handed_to_human: 'Handed to a human agent', handoff_hint: 'The agent\'s reply appears here without reloading.',
  open_document: 'Open document', ready: 'ready', generating: 'generating…', quick_replies: 'Quick replies',
  error_title: 'Something went wrong', retry: 'Retry', busy: 'This thread is still answering the previous message; please wait.',
  server_down: 'Cannot reach the server', server_down_body: 'The server may be stopped or restarting. The page reconnects by itself.', server_down_banner: 'Lost the connection to the server; retrying…', reconnected: 'Reconnected',
  stream_broken: 'The answer\'s connection broke; reconnecting and resuming the thread…', stream_resumed: 'Reconnected; the thread is restored', stream_resumed_incomplete: 'The answer had not finished when the connection broke.',
  source_unavailable: 'Cannot open the source', chars: 'chars',
  toc: 'Contents', breadcrumbs: 'Breadcrumbs', history: 'History', mark_learned: 'Mark as learned', learned: 'Learned', level_beginner: 'Beginner', level_intermediate: 'Intermediate', level_advanced: 'Advanced',
  follow_ups: 'Explore next', entities: 'Terms', related_docs: 'Related documents', parent_doc: 'Parent document', all_documents: 'All documents', activity: 'AI activity', none: 'None',
  comments: 'Comments', no_comments: 'Select text to comment; the AI improves that section.', orphaned_comments: 'Orphaned comments', comment_on_selection: 'Comment on the selection', comment: 'Comment',
  comment_placeholder: 'What is unclear? e.g. too brief, please add detail', your_comment: 'Your comment', improve_with_ai: 'Improve with AI', cancel: 'Cancel',
  status_applied: 'applied', status_answered: 'answered', status_declined: 'not adopted', status_open: 'open', anchor_anchored: 'anchored', anchor_moved: 'moved', anchor_fuzzy: 'fuzzy', anchor_orphaned: 'orphaned',
  updated_to: 'Document updated to', show_diff: 'Show diff', from: 'From', to: 'to', single_version: 'Only one version.', diff: 'Diff', added: 'added', removed: 'removed', no_changes: 'No differences.',
  doc_not_found: 'Document not found', doc_private_body: 'A learning document is visible to its owner only: without signing in, it belongs to the browser that wrote it; signed in with your API key, your documents open in any browser. It may also have been deleted.',
  start_topic: 'Start a topic', topic: 'Topic', topic_placeholder: 'e.g. CNC maintenance', start_learning: 'Generate', documents: 'Documents', no_documents: 'No documents yet; enter a topic to start.',
  learning_paths: 'Learning paths', goal: 'Goal', goal_placeholder: 'e.g. become a CNC operator', plan_path: 'Plan', no_paths: 'No learning paths yet.', progress: 'Progress', total_minutes: 'minutes',
  learned_topics: 'Learned topics', nothing_learned: 'Nothing marked learned yet.',
  upload: 'Upload files', collection: 'Collection', domain: 'Domain', domain_general: 'general', domain_technical: 'technical', domain_hr: 'HR', domain_product: 'product', domain_policy: 'policy',
  drop_files: 'Drop files here or click to choose', drop_help: 'Markdown, text, HTML, PDF, DOCX, CSV; up to 20 MB each',
  uploading: 'Uploading…', ingesting: 'Parsing and embedding…', chunks: 'chunks', unchanged: 'unchanged', failed: 'failed', upload_forbidden: 'Changing the knowledge base needs an editor or admin account: sign in with its API key',
  try_question: 'Try a question', kb_query_placeholder: 'e.g. What is the tolerance of part A?', search: 'Search', passages: 'passages', fused_score: 'fused score', no_results: 'Nothing retrieved.',
  ret_keyword: 'keyword', ret_dense: 'dense', ret_sql: 'SQL', kb_documents: 'Ingested documents', flag_instructions: 'contains instruction-like text: review', collections: 'Collections', file: 'File', kb_empty: 'The knowledge base is empty; upload some files.',
  console_needs_agent: 'The console needs an agent account: sign in with an agent API key (demo: demo-agent).', live_updates: '● live', queue: 'Queue',
  tab_handoffs: 'Handoffs', tab_approvals: 'Refund approvals', tab_reviews: 'Review queue',
  no_reviews: 'No answers waiting for review.', no_approvals: 'No refunds waiting for approval.', no_handoffs: 'No open handoffs.',
  evidence: 'Evidence', approve: 'Approve', edit: 'Edit', reject: 'Reject', edited_answer: 'Edited answer', save_edit: 'Save edit',
  review_approve: 'Approved', review_edit: 'Edited', review_reject: 'Rejected', note: 'Note (optional)', customer: 'Customer',
  wants: 'Wants', mood: 'Mood', facts: 'Facts', steps_tried: 'Tried', reply_as_human: 'Reply as a human', reply_placeholder: 'Type a reply; the customer sees it in their thread',
  send_reply: 'Send reply', return_to_assistant: 'Return to assistant', reply_sent: 'Reply delivered', returned: 'Handed back to the assistant',
  sent_for_review: 'This answer was sent to a reviewer.', kind_answer_review: 'Review',
  path_insufficient: 'The knowledge base does not cover this goal well enough to plan a path. Closest topics:',
  hs_open: 'open', hs_answered: 'answered', hs_returned: 'returned',
};

Object.assign(zh, {
  api_key_help: '粘贴你的 API 密钥。首次运行 knowzero serve 时密钥会打印在终端里；丢了可以在服务器上运行 knowzero keys 查看用户、knowzero keys create 用户名 生成新密钥。密钥只保存在本浏览器。',
  api_key_demo: '演示密钥已开启：demo-alice（顾客）、demo-agent（客服）、demo-editor（编辑）、demo-admin（管理员）。',
  role_editor: '编辑', thread_claimed: '已登录，这个会话已归到你的账号下', delete: '删除', delete_confirm: '确定删除吗？删除后无法恢复。', deleted: '已删除',
  empty_chat_body: '回答都带编号引用，点开可查看原文；每个回答旁实时显示决策过程。', ask_placeholder: '提问、学习主题或查订单…',
  copy: '复制', copied: '已复制', stop: '停止', stopped: '已停止接收；服务器仍会完成这个回答，稍后刷新会话即可看到。',
  feedback_up: '有帮助', feedback_down: '没帮助', feedback_thanks: '感谢反馈，已提交人工复核', feedback_comment: '哪里不对？（可选）',
  verdict_user_up: '用户好评', verdict_user_down: '用户差评', step_trace: '决策过程', steps_n: '步',
  chosen_confirm: '你已确认', chosen_cancel: '你已取消', approved_by_agent: '客服已批准', rejected_by_agent: '客服已驳回', ref: '编号', thread_ref: '会话',
  nav_settings: '设置', settings: '设置', theme: '外观', theme_auto: '跟随系统', theme_light: '浅色', theme_dark: '深色', toggle_theme: '切换深色模式',
  llm_provider: '语言模型', offline_notice: '离线模式：答案从您的文档中抽取，不调用任何大模型。', llm_online: '已配置大模型：', data_dir: '数据目录', database: '数据库',
  models: '模型', embedding_model: '向量模型', index_size: '索引规模', passages_n: '片段', files_n: '文件', data_size: '数据大小', version: '版本',
  settings_staff_only: '数据目录、模型和索引规模仅对编辑、客服和管理员显示。', keys_how: '获取或更换密钥：在服务器上运行 knowzero keys',
  kb_status: '状态', kb_enabled: '启用', kb_disabled: '已停用', enable: '启用', disable: '停用', reindex: '重新索引', reindexed: '已重新索引', view_chunks: '查看片段', actions: '操作', status_indexed: '已索引', status_embedded: '已索引', status_searchable: '可检索（向量生成中）', status_failed: '失败', status_disabled: '已停用（不参与检索与引用）', enabled_toast: '已启用，重新参与检索', disabled_toast: '已停用，不再被检索或引用',
  err_unauthorized: '需要登录：请用 API 密钥登录后再试。', err_forbidden: '当前账号没有权限执行这个操作。', err_not_found: '找不到要访问的内容（可能已删除，或不属于当前账号）。',
  err_conflict: '这个会话正在处理上一条消息，请稍候再试。', err_invalid_input: '输入有误，请检查后重试。', err_internal_error: '服务器处理时出错了，会话已保留，可以重试。',
  err_rate_limited: '请求太频繁，请稍后再试。', err_network: '无法连接服务器。',
});

Object.assign(en, {
  api_key_help: 'Paste your API key. Keys are printed in the terminal the first time knowzero serve runs; lost one? On the server, knowzero keys lists users and knowzero keys create USER prints a new key. The key is kept in this browser only.',
  api_key_demo: 'Demo keys are on: demo-alice (customer), demo-agent (agent), demo-editor (editor), demo-admin (admin).',
  role_editor: 'editor', thread_claimed: 'Signed in; this conversation is now yours', delete: 'Delete', delete_confirm: 'Delete it? This cannot be undone.', deleted: 'Deleted',
  empty_chat_body: 'Every answer has numbered citations you can open; the live trace shows each decision beside the answer.', ask_placeholder: 'Ask, learn a topic, or check an order…',
  copy: 'Copy', copied: 'Copied', stop: 'Stop', stopped: 'Stopped. The server still finishes this answer; reload the conversation to see it.',
  feedback_up: 'Helpful', feedback_down: 'Not helpful', feedback_thanks: 'Thanks — sent to the review queue', feedback_comment: 'What was wrong? (optional)',
  verdict_user_up: 'user: helpful', verdict_user_down: 'user: not helpful', step_trace: 'Trace', steps_n: 'steps',
  chosen_confirm: 'You confirmed', chosen_cancel: 'You cancelled', approved_by_agent: 'Approved by an agent', rejected_by_agent: 'Rejected by an agent', ref: 'Ref', thread_ref: 'Conversation',
  nav_settings: 'Settings', settings: 'Settings', theme: 'Appearance', theme_auto: 'System', theme_light: 'Light', theme_dark: 'Dark', toggle_theme: 'Toggle dark mode',
  llm_provider: 'Language model', offline_notice: 'Offline mode: answers are extracted from your documents; no LLM is called.', llm_online: 'LLM configured: ', data_dir: 'Data directory', database: 'Database',
  models: 'Models', embedding_model: 'Embedding model', index_size: 'Index size', passages_n: 'passages', files_n: 'files', data_size: 'Data size', version: 'Version',
  settings_staff_only: 'The data directory, models and index sizes are shown to editors, agents and admins.', keys_how: 'Get or replace a key: run knowzero keys on the server',
  kb_status: 'Status', kb_enabled: 'enabled', kb_disabled: 'disabled', enable: 'Enable', disable: 'Disable', reindex: 'Re-index', reindexed: 'Re-indexed', view_chunks: 'Chunks', actions: 'Actions', status_indexed: 'indexed', status_embedded: 'indexed', status_searchable: 'searchable (vectors pending)', status_failed: 'failed', status_disabled: 'disabled (not retrieved or cited)', enabled_toast: 'Enabled: retrieved again', disabled_toast: 'Disabled: no longer retrieved or cited',
  err_unauthorized: 'Sign in with an API key to do this.', err_forbidden: 'Your account may not do this.', err_not_found: 'Not found (it may have been deleted, or belong to another account).',
  err_conflict: 'This conversation is still answering the previous message; try again in a moment.', err_invalid_input: 'Some input is invalid; please check it.', err_internal_error: 'Something went wrong on the server; the conversation is kept and you can retry.',
  err_rate_limited: 'Too many requests; try again shortly.', err_network: 'Cannot reach the server.',
});
// Review fixes (kept apart from the blocks above).
Object.assign(zh, {
  delete_blocked_refund_pending: '这个会话里有一笔退款正在等待客服审批，审批完成后才能删除。',
  delete_blocked_handoff_open: '人工客服正在处理这个会话，交还给智能助手后才能删除。',
  message_too_long: '消息过长：最多 {n} 字',
  stored_as: '保存为', upload_name_taken: '未上传：{name} 已存在，{files}（不保留文件夹）会覆盖它。请给文件改名；若确实要替换，请直接用该文件名上传。',
  upload_duplicate_name: '未上传：{files} 去掉文件夹后都会保存为 {name}，请给其中一个改名。',
});
Object.assign(en, {
  delete_blocked_refund_pending: 'A refund in this conversation is waiting for an agent\'s decision; delete it once the refund is decided.',
  delete_blocked_handoff_open: 'A human agent has this conversation; delete it once it is handed back to the assistant.',
  message_too_long: 'Message too long: at most {n} characters',
  stored_as: 'stored as', upload_name_taken: 'Not uploaded: {name} already exists and {files} would replace it (folders are not kept). Rename the file, or upload it under that name to replace it.',
  upload_duplicate_name: 'Not uploaded: {files} would all be stored as {name} (folders are not kept); rename one.',
});
// Knowledge-base picker (chat) and bulk actions (knowledge base).
Object.assign(zh, {
  kb_scope: '知识范围', kb_scope_label: '这个对话从哪些知识库文档回答', kb_scope_all: '全部我的文档', kb_scope_demo: '演示公司', tr_scope: '范围',
  select_all: '全选', select_file: '选择', n_selected: '已选 {n} 个文件', clear_selection: '取消选择', bulk_actions: '批量操作', bulk_done: '已处理 {n} 个文件',
  collection_disable: '停用整个集合', collection_enable: '启用整个集合', collection_delete: '删除集合',
  collection_delete_confirm: '将删除集合 {name} 中的全部 {n} 个文档，删除后无法恢复。',
  remove_demo: '删除演示文档', remove_demo_confirm: '将删除演示公司的全部 {n} 个文档（集合 demo），你自己上传的文档不受影响。删除后无法恢复。',
});
Object.assign(en, {
  kb_scope: 'Knowledge', kb_scope_label: 'Which knowledge-base documents this conversation answers from', kb_scope_all: 'All my documents', kb_scope_demo: 'demo company', tr_scope: 'Scope',
  select_all: 'Select all', select_file: 'Select', n_selected: '{n} selected', clear_selection: 'Clear selection', bulk_actions: 'Bulk actions', bulk_done: 'Done: {n} files',
  collection_disable: 'Disable collection', collection_enable: 'Enable collection', collection_delete: 'Delete collection',
  collection_delete_confirm: 'This deletes all {n} documents of collection {name}. This cannot be undone.',
  remove_demo: 'Remove demo documents', remove_demo_confirm: 'This deletes all {n} documents of the demo company (collection demo); documents you uploaded are not affected. This cannot be undone.',
});
// Settings: the chat model and people and keys (admins).
Object.assign(zh, {
  model_setup: '模型设置', model_now: '当前回答：', model_now_offline: '当前回答：离线模式（从文档中抽取）',
  model_source_settings: '在本页设置', model_source_environment: '来自服务器环境变量 KNOWZERO_LLM_*', model_source_none: '未配置模型',
  model_url: '接口地址（OpenAI 兼容）', model_url_help: '例如 http://127.0.0.1:11434/v1（Ollama）或 https://api.deepseek.com/v1。生产环境下远程地址必须是 https。',
  model_name: '模型名', model_key: 'API 密钥', model_key_help: '只保存在服务器上，不会再显示；留空则保留已保存的密钥（地址不变时）。',
  model_key_kept: '（留空保留）', model_key_none: '未设置（本地模型可不填）',
  model_test: '测试', model_testing: '测试中…', model_test_ok: '连接成功', model_test_failed: '测试失败',
  model_save: '保存并启用', model_saved: '已保存，立即生效', model_off: '关闭模型（离线）', model_switched_off: '已关闭模型，回到离线模式',
  people_keys: '用户与密钥', people_help: '与服务器上的 knowzero keys 命令相同：密钥只显示一次；撤销后不能再签发新密钥，直到恢复。',
  user_id: '用户 ID', user_name: '名称', user_role: '角色', user_add: '添加用户', user_create: '创建并生成密钥',
  user_active: '可用', user_revoked: '已撤销', user_no_key: '无密钥', user_restore: '恢复', user_new_key: '新密钥', user_revoke: '撤销',
  user_revoked_toast: '已撤销 {id} 的密钥', revoke_confirm: '撤销 {id} 的密钥？此后用它登录会失败，恢复前不能签发新密钥。',
  new_key_confirm: '为 {id} 生成新密钥？旧密钥会立即失效。', key_for: '新密钥：', key_shown_once: '密钥只显示这一次，请现在复制并交给对方；服务器只保存它的哈希。',
});
Object.assign(en, {
  model_setup: 'Model set-up', model_now: 'Answering now:', model_now_offline: 'Answering now: offline mode (extracted from documents)',
  model_source_settings: 'set on this page', model_source_environment: 'from the server\'s KNOWZERO_LLM_* variables', model_source_none: 'no model configured',
  model_url: 'Base URL (OpenAI-compatible)', model_url_help: 'e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.deepseek.com/v1. In production a remote URL must be https.',
  model_name: 'Model', model_key: 'API key', model_key_help: 'Kept on the server only and never shown again; leave empty to keep the saved key (same URL).',
  model_key_kept: '(empty keeps it)', model_key_none: 'not set (local servers may need none)',
  model_test: 'Test', model_testing: 'Testing…', model_test_ok: 'Connected', model_test_failed: 'Test failed',
  model_save: 'Save and use', model_saved: 'Saved; in use now', model_off: 'Switch off (offline)', model_switched_off: 'Model switched off; back to offline mode',
  people_keys: 'People and keys', people_help: 'The same as knowzero keys on the server: a key is shown once; a revoked user gets no new key until restored.',
  user_id: 'User id', user_name: 'Name', user_role: 'Role', user_add: 'Add a user', user_create: 'Create with a key',
  user_active: 'active', user_revoked: 'revoked', user_no_key: 'no key', user_restore: 'Restore', user_new_key: 'New key', user_revoke: 'Revoke',
  user_revoked_toast: '{id}\'s key revoked', revoke_confirm: 'Revoke {id}\'s key? Signing in with it fails from now on, and no new key is issued until restored.',
  new_key_confirm: 'Issue a new key for {id}? The old key stops working at once.', key_for: 'New key for', key_shown_once: 'This key is shown once: copy it now and hand it over. The server keeps only its hash.',
});
const DICT = { zh, en };

function initial() {
  const saved = localStorage.getItem('kz.lang');
  if (saved === 'zh' || saved === 'en') return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'zh'];
  return /^zh/i.test(langs[0]) ? 'zh' : 'en';
}
let current = initial();

export function lang() { return current; }
export function setLang(l) { current = l; localStorage.setItem('kz.lang', l); }
// A server error in the UI's language: known codes are translated; a Chinese message stays as it is
// in the Chinese UI (service refusals are already written for the customer), English never leaks into it.
export function errorText(code, message) {
  const known = DICT[current]['err_' + code];
  if (current === 'zh') return /[\u4e00-\u9fff]/.test(message || '') ? message : (known || zh.err_internal_error);
  return known && !message ? known : (message || known || code || '');
}
export function t(key) { return DICT[current][key] ?? zh[key] ?? ''; }
/** Where a citation or chunk stands: "p. 3" ("slide 3" in a deck), "· OCR" when OCR read that page. */
export function pageLabel(c) {
  if (c == null || c.page == null) return '';
  const where = t(/\.pptx$/i.test(c.source || c.path || '') ? 'slide_n' : 'page_n').replace('{n}', String(c.page));
  return c.ocr ? `${where} · OCR` : where;
}
export function applyStatic(root = document) {
  document.documentElement.lang = current === 'zh' ? 'zh-CN' : 'en';
  root.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
  root.querySelectorAll('[data-i18n-label]').forEach((el) => { el.setAttribute('aria-label', t(el.dataset.i18nLabel)); });
}
