import type { settingsTokensEn } from './settings-tokens.en';

/** Korean strings of Settings → API tokens; a missing or unknown key is a compile error. */
export const settingsTokensKo: Record<keyof typeof settingsTokensEn, string> = {
  'settings.tokens.title': 'API 토큰',
  'settings.tokens.text':
    '토큰으로 CI 작업이나 aqa 명령줄이 사용자 대신 API를 호출할 수 있습니다. 테스트를 실행하고 조회할 수 있지만, 토큰을 만들거나 폐기하거나, 프로필이나 비밀번호를 바꾸거나, 로그아웃시킬 수는 없습니다. 부하 에이전트(aqa agent)에는 그 밖의 일은 할 수 없는 전용 범위의 토큰이 필요합니다.',
  'settings.tokens.name': '토큰 이름',
  'settings.tokens.namePlaceholder': '예: GitHub Actions',
  'settings.tokens.expiry': '만료까지 (일)',
  'settings.tokens.expiryPlaceholder': '만료 없음',
  'settings.tokens.scope': '범위',
  'settings.tokens.scopeApi': 'API: CI 작업과 aqa 명령줄',
  'settings.tokens.scopeAgent': '부하 에이전트: aqa agent 전용',
  'settings.tokens.scopeApiHint':
    '사용자 대신 API를 호출합니다: 테스트를 실행하고 조회할 수 있습니다. 부하 에이전트는 이 토큰을 받지 않습니다.',
  'settings.tokens.scopeAgentHint':
    '부하 머신의 aqa agent용입니다: 에이전트를 등록하고 실행의 몫을 돌릴 수 있으며 그 밖의 모든 곳에서 거부되므로, 토큰이 새어도 테스트를 읽거나 시작할 수 없습니다.',
  'settings.tokens.scopeInvalid': '범위는 "api"(사용자로서 API) 또는 "agent"(부하 에이전트 전용)여야 합니다',
  'settings.tokens.badgeApi': 'API',
  'settings.tokens.badgeAgent': '부하 에이전트',
  'settings.tokens.usageAgent':
    'aqa agent에 --token이나 AQA_TOKEN으로 넘기세요 (앱 다운로드 화면에 명령이 있습니다).',
  'settings.tokens.expiryHint': '1일부터 {max}일까지입니다. 비워 두면 만료되지 않는 토큰이 됩니다.',
  'settings.tokens.create': '토큰 만들기',
  'settings.tokens.creating': '만드는 중...',
  'settings.tokens.nameRequired': '토큰 이름을 입력하세요',
  'settings.tokens.nameTooLong': '토큰 이름은 최대 {max}자입니다',
  'settings.tokens.nameControl': '토큰 이름에는 제어 문자나 줄바꿈을 쓸 수 없습니다',
  'settings.tokens.nameIllFormed':
    '토큰 이름의 텍스트가 올바르지 않습니다: 문자의 절반(짝이 없는 UTF-16 서로게이트)이 들어 있습니다. 다시 입력하거나 붙여 넣어 주세요.',
  'settings.tokens.expiryInvalid': '만료는 1부터 {max}까지의 정수 일수이거나, 만료 없이 비워 두어야 합니다',
  'settings.tokens.tooMany':
    '이미 API 토큰이 {max}개 있습니다. 새로 만들기 전에 쓰지 않는 토큰을 폐기하세요.',
  'settings.tokens.createdTitle': '토큰 "{name}"을(를) 만들었습니다',
  'settings.tokens.createdWarning': '지금 복사하세요. 다시 표시되지 않습니다.',
  'settings.tokens.usage': 'Authorization: Bearer <토큰> 헤더로 보내거나, aqa에 --token으로 넘기세요.',
  'settings.tokens.tokenLabel': '새 API 토큰',
  'settings.tokens.copy': '복사',
  'settings.tokens.copied': '토큰을 클립보드에 복사했습니다',
  'settings.tokens.copyFailed': '토큰을 복사하지 못했습니다. 직접 선택해 복사하세요.',
  'settings.tokens.done': '복사했습니다',
  'settings.tokens.listTitle': '내 토큰',
  'settings.tokens.count': '{max}개 중 {count}개',
  'settings.tokens.loading': '토큰을 불러오는 중...',
  'settings.tokens.loadFailed': 'API 토큰을 불러오지 못했습니다',
  'settings.tokens.empty': '아직 API 토큰이 없습니다',
  'settings.tokens.emptyText': '위에서 CI 작업이나 aqa 명령줄용 토큰을 만드세요.',
  'settings.tokens.created': '{date}에 만듦',
  'settings.tokens.lastUsed': '{date}에 마지막 사용',
  'settings.tokens.neverUsed': '사용한 적 없음',
  'settings.tokens.expires': '{date}에 만료',
  'settings.tokens.neverExpires': '만료 없음',
  'settings.tokens.expiredOn': '{date}에 만료됨',
  'settings.tokens.expired': '만료됨',
  'settings.tokens.revoke': '폐기',
  'settings.tokens.revokeLabel': '토큰 {name} 폐기',
  'settings.tokens.confirmRevoke':
    '토큰 "{name}"을(를) 폐기할까요? 이 토큰을 쓰는 모든 곳이 즉시 작동을 멈춥니다. 되돌릴 수 없습니다.',
  'settings.tokens.revoked': '토큰 "{name}"을(를) 폐기했습니다',
  'settings.tokens.revokeFailed': '토큰을 폐기하지 못했습니다: {message}',
  'settings.tokens.createFailed': '토큰을 만들지 못했습니다: {message}',
};
