import type { messagesEn } from './messages.en';

/** Korean strings of the Messages screen; the same keys as messages.en.ts. */
export const messagesKo: Record<keyof typeof messagesEn, string> = {
  'messages.title': '메시지',
  'messages.description':
    '테스트가 완료되거나 실패하거나 중지되거나 임계값을 넘으면 여기에 메시지가 도착합니다.',
  'messages.markAllRead': '모두 읽음으로 표시',
  'messages.markRead': '읽음으로 표시',
  'messages.loading': '메시지를 불러오는 중...',
  'messages.loadFailed': '메시지를 불러오지 못했습니다',
  'messages.markFailed': '메시지를 읽음으로 표시하지 못했습니다: {message}',
  'messages.allRead': '모든 메시지를 읽음으로 표시했습니다',
  'messages.emptyTitle': '아직 메시지가 없습니다',
  'messages.emptyText':
    '부하·API·UI 테스트가 완료되거나 실패하거나 중지되거나 계획의 임계값을 넘으면, 측정된 수치와 결과 링크가 담긴 메시지가 여기에 표시됩니다.',
  'messages.unread': '읽지 않음',
  'messages.unreadCount': '읽지 않음 {count}개',
  'messages.unreadBadge': '읽지 않은 메시지 {count}개',
  'messages.viewResult': '결과 보기',
  'messages.kind.completed': '완료',
  'messages.kind.failed': '실패',
  'messages.kind.stopped': '중지됨',
  'messages.kind.interrupted': '중단됨',
  'messages.kind.threshold_failed': '임계값 위반',
  'messages.test.load': '부하 테스트',
  'messages.test.api': 'API 테스트',
  'messages.test.ui': 'UI 테스트',
  'messages.heading.completed': '{name} {test} 완료',
  'messages.heading.failed': '{name} {test} 실패',
  'messages.heading.stopped': '{name} {test} 중지됨',
  'messages.heading.interrupted': '{name} {test} 중단됨',
  'messages.heading.threshold_failed': '{name} {test} 임계값 위반',
};
