import styled from 'styled-components';

/** An input with a companion control (captcha image, send-code button) on its right. */
export const InputWithAction = styled.div`
  display: flex;
  gap: 8px;

  .ant-form-item {
    flex: 1;
    min-width: 0;
  }
`;
