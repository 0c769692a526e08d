import styled from 'styled-components';

const Footer = styled.footer`
  padding: 16px 12px 20px;
  text-align: center;
  font-size: 12px;
  color: ${({ theme }) => theme.colors.textOnPrimary};
  opacity: 0.85;

  a {
    color: inherit;
    margin-left: 8px;
  }
`;

interface RecordFooterProps {
  company: string;
  number: string;
  link: string;
}

/** The filing (record) company and number of the site, linking to the filing register. */
export function RecordFooter({ company, number, link }: RecordFooterProps) {
  if (!company && !number) return null;
  return (
    <Footer>
      <span>{company}</span>
      {number ? (
        <a href={link || undefined} target="_blank" rel="noopener noreferrer">
          {number}
        </a>
      ) : null}
    </Footer>
  );
}
