import type { auditEn } from './audit.en';

/** Korean strings of Settings → Audit log; spread into `ko.ts`. */
export const auditKo: Record<keyof typeof auditEn, string> = {
  'audit.title': '감사 로그',
  'audit.text':
    '누가 언제 무엇을 만들고, 바꾸고, 실행하고, 중지하고, 삭제했는지 기록합니다(웹 앱과 API 토큰 모두). 기록은 {days}일 동안 보관됩니다.',
  'audit.download': 'CSV 다운로드',
  'audit.downloadFailed': '감사 로그를 다운로드하지 못했습니다: {message}',
  'audit.loading': '감사 로그를 불러오는 중...',
  'audit.loadFailed': '감사 로그를 불러오지 못했습니다',
  'audit.empty': '아직 기록이 없습니다',
  'audit.emptyText': '테스트를 저장, 실행, 중지, 삭제하면 여기에 기록됩니다.',
  'audit.viaToken': 'API 토큰',
  'audit.action.created': '만듦',
  'audit.action.changed': '바꿈',
  'audit.action.ran': '실행함',
  'audit.action.stopped': '중지함',
  'audit.action.deleted': '삭제함',
  'audit.object.load_plan': '부하 테스트 플랜',
  'audit.object.functional_plan': '기능 테스트 플랜',
  'audit.object.load_run': '부하 테스트 실행',
  'audit.object.functional_run': '기능 테스트 실행',
  'audit.object.schedule': '예약',
  'audit.object.api_token': 'API 토큰',
  'audit.object.load_agent': '부하 에이전트',
  'audit.object.account': '계정',
  'audit.object.assistant_conversation': 'James와의 대화',
  'audit.object.notification_channel': '알림 채널',
  'audit.object.workspace': '워크스페이스',
  'audit.object.workspace_member': '워크스페이스 멤버',
  'audit.object.workspace_invite': '워크스페이스 초대 링크',
  'audit.line': '{actor} — {object} {action}',
};
