import styled from 'styled-components';

/** A full-height page with its content in the middle (error and status pages). */
export const CenteredPage = styled.main`
  display: flex;
  align-items: center;
  justify-content: center;
  min-height: 100vh;
  padding: 24px;
  box-sizing: border-box;
`;
