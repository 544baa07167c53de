import type { feedbackEn } from './feedback.en';

/** Korean strings of the Feedback screen; the same keys as feedback.en.ts. */
export const feedbackKo: Record<keyof typeof feedbackEn, string> = {
  'feedback.title': '피드백',
  'feedback.description':
    '버그, 아이디어, 질문을 팀에 알려 주세요. 보낸 내용은 계정과 함께 저장되고 아래에 표시됩니다.',
  'feedback.formTitle': '피드백 보내기',
  'feedback.kind': '종류',
  'feedback.kind.bug': '버그',
  'feedback.kind.idea': '아이디어',
  'feedback.kind.question': '질문',
  'feedback.message': '내용',
  'feedback.messagePlaceholder': '무슨 일이 있었나요, 무엇이 도움이 될까요?',
  'feedback.messageCount': '{count} / {max}',
  'feedback.page': '페이지',
  'feedback.pageHint': '피드백이 관련된 페이지입니다. 이전에 보던 페이지로 채워집니다.',
  'feedback.runId': '테스트 결과 ID',
  'feedback.runIdHint': '관련된 내 실행의 ID (예: run_… 또는 fc_…)',
  'feedback.send': '피드백 보내기',
  'feedback.sending': '보내는 중...',
  'feedback.sent': '감사합니다. 피드백을 보냈습니다.',
  'feedback.messageRequired': '피드백 내용을 입력하세요',
  'feedback.messageTooLong': '피드백은 최대 {max}자까지 쓸 수 있습니다',
  'feedback.runNotFound': '이 ID의 테스트 결과가 없습니다',
  'feedback.sendFailed': '피드백을 보내지 못했습니다: {message}',
  'feedback.sentTitle': '보낸 피드백',
  'feedback.sentEmpty': '아직 보낸 피드백이 없습니다. 보낸 내용이 날짜와 함께 여기에 표시됩니다.',
  'feedback.loading': '피드백을 불러오는 중...',
  'feedback.loadFailed': '피드백을 불러오지 못했습니다',
  'feedback.onPage': '페이지: {page}',
  'feedback.aboutRun': '테스트 결과: {id}',
};
